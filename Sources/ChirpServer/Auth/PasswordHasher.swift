import HummingbirdBcrypt
import NIOPosix

/// bcrypt password hashing, run on NIO's thread pool so the event loops never block on it.
struct PasswordHasher: Sendable {
    /// bcrypt cost (work factor 2^cost); 10 or more outside tests.
    var cost: UInt8

    /// A hash of a password that is not anyone's, checked when a login names an unknown user so
    /// that the answer takes as long as for a known one.
    private static let decoy = Bcrypt.hash("chirp-decoy-password", cost: 4)

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String?) async throws -> Bool {
        let stored = hash ?? Self.decoy
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: stored) }
        return matches && hash != nil
    }
}
