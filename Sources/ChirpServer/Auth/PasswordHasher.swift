import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt password hashing, run on NIO's thread pool so the event loops never block on it.
///
/// bcrypt reads at most 72 bytes and stops at a NUL, so a password is not handed to it as it
/// is: new hashes are of the password's HMAC-SHA-256 (under a fixed key, so a leaked plain
/// SHA-256 of the password from elsewhere cannot be tried against them), in base64 (44 bytes,
/// no NUL), and stored as `prehashed` + the bcrypt string. Every byte of any length counts.
/// Hashes from before (no prefix) are still checked the old way, except for a password with a
/// NUL in it, which could only match what bcrypt saw before its NUL and is refused.
struct PasswordHasher: Sendable {
    /// bcrypt cost (work factor 2^cost); 10 or more outside tests.
    let cost: UInt8
    /// A hash of a password that is not anyone's, of the same form and at the same `cost` as
    /// a real one, checked when a login names an unknown user so that the answer takes exactly
    /// as long as for a known one.
    let decoy: String

    /// The mark of a hash of the pre-hashed password.
    static let prehashed = "$chirp-hmac-sha256$"

    init(cost: UInt8) {
        self.cost = cost
        decoy = Self.prehashed + Bcrypt.hash(Self.prehash(UUID().uuidString), cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let input = Self.prehash(password)
        return try await NIOThreadPool.singleton.runIfActive { Self.prehashed + Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, hash: String?) async throws -> Bool {
        let stored = hash ?? decoy
        let matches = try await NIOThreadPool.singleton.runIfActive { Self.check(password, against: stored) }
        return matches && hash != nil
    }

    /// Whether `password` is the one `stored` was made of (either form).
    static func check(_ password: String, against stored: String) -> Bool {
        if stored.hasPrefix(prehashed) {
            return Bcrypt.verify(prehash(password), hash: String(stored.dropFirst(prehashed.count)))
        }
        guard !password.utf8.contains(0) else { return false }
        return Bcrypt.verify(password, hash: stored)
    }

    /// What bcrypt is given: the password's HMAC-SHA-256 in base64.
    static func prehash(_ password: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(password.utf8), using: SymmetricKey(data: key))
        return Data(mac).base64EncodedString()
    }

    private static let key = Data("chirp password prehash v1".utf8)
}
