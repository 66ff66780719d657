import ChirpModels

/// Accounts and sessions.
protocol AccountStore: Sendable {
    /// Creates the account and its first session; nil when the username's key is taken.
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User?
    func credentials(usernameKey: String) async throws -> Credentials?
    /// Stores a session for `session.userId`; nil when that account no longer exists.
    func createSession(_ session: NewSession) async throws -> User?
    func session(tokenHash: [UInt8]) async throws -> SessionInfo?
    func deleteSession(tokenHash: [UInt8]) async throws
    /// The user with that username key, with viewer fields for `viewer` (nil: without).
    func user(usernameKey: String, viewer: Int64?) async throws -> User?
    func user(id: Int64) async throws -> User?
}

/// An account to create.
struct NewAccount: Sendable {
    var username: String
    var displayName: String
    var passwordHash: String
    var createdAt: Timestamp
}

/// A session to create; `userId` is ignored by `createAccount`, which uses the new account.
struct NewSession: Sendable {
    var userId: Int64
    var tokenHash: [UInt8]
    var createdAt: Timestamp
    var expiresAt: Timestamp
}

/// What login needs to check a password.
struct Credentials: Sendable {
    var userId: Int64
    var passwordHash: String
}

/// A stored session, found by its token hash.
struct SessionInfo: Sendable {
    var userId: Int64
    var username: String
    var expiresAt: Timestamp
}
