import ChirpModels

/// The server's durable state, behind one protocol so that SQLite (the default) and, later,
/// PostgreSQL implement the same semantics.
///
/// Every mutating call is one transaction that also appends the events it causes to the
/// affected users' streams; it returns the ids of the users whose streams grew, so the caller
/// can wake their listeners after the commit. Business rules that need a consistent view (the
/// DM permission, idempotent sends, uniqueness) are checked inside that transaction and
/// reported as `APIError`s.
protocol ChirpStorage: Sendable {
    // MARK: accounts and sessions
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User
    func credentials(usernameKey: String) async throws -> Credentials?
    func createSession(_ session: NewSession) async throws -> User
    func session(tokenHash: [UInt8]) async throws -> SessionInfo?
    func deleteSession(tokenHash: [UInt8]) async throws

    // MARK: users and the social graph
    func user(username: String, viewer: Int64?) async throws -> User
    func user(id: Int64) async throws -> User
    func follow(viewer: Viewer, username: String, at: Timestamp) async throws -> WriteOutcome<Void>
    func unfollow(viewer: Viewer, username: String) async throws
    func followers(of username: String, viewer: Int64, page: PageRequest) async throws -> Page<User>
    func following(of username: String, viewer: Int64, page: PageRequest) async throws -> Page<User>

    // MARK: direct messages
    func sendMessage(_ message: NewMessage) async throws -> WriteOutcome<Message>
    func message(sender: Int64, clientMessageId: String) async throws -> Message?
    func messages(viewer: Viewer, peer: String, limit: Int, before: Int64?, after: Int64?) async throws -> Page<Message>
    func conversations(viewer: Viewer, page: PageRequest) async throws -> Page<Conversation>
    func markRead(viewer: Viewer, peer: String, upTo: Int64, at: Timestamp) async throws -> WriteOutcome<Void>
    func typingTarget(viewer: Viewer, peer: String) async throws -> Int64

    // MARK: tweets
    func putTweet(_ tweet: NewTweet) async throws -> WriteOutcome<Tweet>
    func deleteTweet(viewer: Viewer, id: Int64) async throws
    func tweets(by username: String, viewer: Int64, page: PageRequest) async throws -> Page<Tweet>
    func timeline(viewer: Int64, page: PageRequest) async throws -> Page<Tweet>

    // MARK: client logs
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws -> Bool
    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry]

    // MARK: events
    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventSlice
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

/// A message to store.
struct NewMessage: Sendable {
    var sender: Viewer
    var recipient: String
    var clientMessageId: String
    var text: String
    var createdAt: Timestamp
}

/// A tweet to store.
struct NewTweet: Sendable {
    var author: Viewer
    var clientTweetId: String
    var text: String
    var createdAt: Timestamp
}

/// A position in a newest-first list: at most `limit` items strictly older than `cursor`.
struct PageRequest: Sendable {
    var limit: Int
    var cursor: Int64?
}

/// The result of a write: the value, whether it was newly created (or a replay), and the events
/// it appended to users' streams in the same transaction.
struct WriteOutcome<Value: Sendable>: Sendable {
    var value: Value
    var created: Bool
    var appended: [AppendedEvent] = []
    /// `value` as the API's JSON, when the write already encoded it (for its event): the
    /// response is then sent as it is, without encoding the value again.
    var json: String?

    /// The users whose event streams grew.
    var notifiedUsers: [Int64] { appended.userIds }
}

/// One event a write appended to one user's stream.
struct AppendedEvent: Sendable, Equatable {
    var userId: Int64
    var event: StoredEvent
}

extension [AppendedEvent] {
    /// The users whose streams these events are in, each once, ascending.
    var userIds: [Int64] { Set(map(\.userId)).sorted() }
}

/// One stored event, its data already encoded as JSON.
struct StoredEvent: Sendable, Equatable {
    var seq: Int64
    var type: String
    var createdAt: Timestamp
    var json: String
}

/// Events after a seq, and the newest seq the user has.
struct EventSlice: Sendable {
    var events: [StoredEvent]
    var head: Int64
}

/// A client log entry as stored (`id`, `username` and `receivedAt` are filled when read back).
public struct ClientLogEntry: Sendable, Hashable {
    public var level: String
    public var message: String
    public var loggedAt: Timestamp
    public var metadata: [String: String]?
    public var source: String?
    public var username: String?
    public var batchId: String?

    /// The severity order of `level`: debug 0 … fatal 4.
    public var severity: Int { LogRecord.levels.firstIndex(of: level) ?? 0 }
}
