import ChirpModels

/// Accounts and sessions.
protocol AccountStore: Sendable {
    /// Creates the account and its first session; nil when the username's key is taken.
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User?
    func credentials(usernameKey: String) async throws -> Credentials?
    /// Stores a session for `session.userId`; nil when that account no longer exists or is
    /// suspended (checked in the same transaction, so a suspension never misses a new session).
    func createSession(_ session: NewSession) async throws -> User?
    func session(tokenHash: [UInt8]) async throws -> SessionInfo?
    func deleteSession(tokenHash: [UInt8]) async throws
    /// The user with that username key, with viewer fields for `viewer` (nil: without).
    func user(usernameKey: String, viewer: Int64?) async throws -> User?
    func user(id: Int64) async throws -> User?
    /// Whether the user is one of the server's operators (read by the admin routes and
    /// `GET /v1/me`, never by other routes).
    func isOperator(userId: Int64) async throws -> Bool

    // Account security (API.md part 2, "Accounts and sessions").
    /// The user's sessions that have not expired at `now`, newest first.
    func sessions(userId: Int64, now: Timestamp) async throws -> [StoredSession]
    /// Deletes the user's session with that public id; false when the user has none such.
    func deleteSession(userId: Int64, publicId: String) async throws -> Bool
    /// Records a use of the session (callers limit how often).
    func touchSession(publicId: String, at: Timestamp) async throws
    /// Sets the password hash and deletes every session of the user but `keeping` (a public id).
    func changePassword(userId: Int64, passwordHash: String, keeping publicId: String) async throws
    /// Deletes the account in one transaction: sessions, tweets, follows (and the safety hook's
    /// rows), its own conversations and events; its sent messages become tombstones; the
    /// username is freed; `user.deleted` (data `notice`) goes to everyone who had a
    /// conversation with or followed it, or shares a group with it. In groups, as a leave by
    /// the account (`groups` decide what it writes) with its group messages tombstones, in the
    /// members' stored events too. Nil when the account does not exist.
    func deleteAccount(userId: Int64, at: Timestamp, notice: String, groups: some GroupDecisions) async throws
        -> WriteOutcome<Void>?
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
    /// The id `GET /v1/sessions` shows (never the token or its digest).
    var publicId: String = SessionTokens.publicId()
    var userAgent: String? = nil
}

/// A session as `GET /v1/sessions` lists it.
struct StoredSession: Sendable, Equatable {
    var publicId: String
    var createdAt: Timestamp
    var lastUsedAt: Timestamp
    var userAgent: String?
}

/// What login needs to check a password, and whether the account is suspended (login then
/// answers 403 `account_suspended`, after the password was right).
struct Credentials: Sendable {
    var userId: Int64
    var passwordHash: String
    var suspended: Bool = false
}

/// A stored session, found by its token hash.
struct SessionInfo: Sendable {
    var userId: Int64
    var username: String
    var expiresAt: Timestamp
    var publicId: String = ""
    var lastUsedAt: Timestamp = Timestamp(millisecondsSince1970: 0)
}
