import ChirpModels

/// The server's durable state, one protocol per feature, implemented by each backend
/// (`SQLiteStorage`, `PostgresStorage`).
///
/// Storage runs SQL and returns plain values: it knows no HTTP, no API error and no API JSON.
/// Every mutating call is one transaction that also appends the events it causes to the
/// affected users' streams and returns them, so the service above can wake their listeners
/// after the commit. A rule that needs the transaction's consistent view (may this user
/// message that one, is this a retry of a stored send) is decided by the service through the
/// decisions it hands in (`SendDecisions`, the closures of the tweet writes): storage gathers
/// the facts, asks, and writes what it was told to.
protocol ChirpStorage: AccountStore, SocialStore, MessageStore, TweetStore, EventStore, ClientLogStore {}

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

/// The social graph.
protocol SocialStore: Sendable {
    /// Adds the follow and appends `follow.created` to the followee's stream, its data
    /// `notice(follower as the followee sees them)`; nil when there is no such followee.
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp, notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>?
    /// Removes the follow; nil when there is no such followee, false when there was no follow.
    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool?
    /// Newest follow first, at most `limit` rows (cursor: the follow's id); nil: no such user.
    func followers(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
    func following(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
}

/// Direct messages.
protocol MessageStore: Sendable {
    /// Stores `new` if `decisions` say so, inside one transaction with both conversation rows
    /// and both `message.created` events (their data `decisions.encode(message)`).
    func sendMessage(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message>
    /// The sender's message with this client id, if any.
    func message(sender: Int64, clientMessageId: String) async throws -> Message?
    /// What the may-message rule needs to know about a recipient; nil when there is none.
    func recipientFacts(sender: Int64, recipientKey: String) async throws -> RecipientFacts?
    /// Messages between the two users with ids strictly between `after` and `before`, at most
    /// `limit`, oldest first when `ascending` (else newest first); nil: no such peer.
    func messages(
        viewer: Int64, peerKey: String, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]?
    /// The viewer's conversations, newest last message first (cursor: that message's id).
    func conversations(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Conversation>]
    /// Marks the peer's messages up to `upTo` read and appends `message.read` to the peer's
    /// stream, its data `receipt(peer's username)`.
    func markRead(
        reader: Int64, peerKey: String, upTo: Int64, at: Timestamp, receipt: @escaping @Sendable (String) throws -> String
    ) async throws -> MarkReadOutcome
}

/// Tweets.
protocol TweetStore: Sendable {
    /// Stores the tweet and appends `tweet.created` (data `encode(tweet)`) to the author's and
    /// every follower's stream; when the author already used the client id, `replay` answers
    /// with the stored tweet or throws.
    func putTweet(
        _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet, encode: @escaping @Sendable (Tweet) throws -> String
    ) async throws -> WriteOutcome<Tweet>
    /// Deletes the tweet after `permit(author id or nil when there is no such tweet)` returned.
    func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws
    func tweets(byKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]?
    func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]
}

/// Events.
protocol EventStore: Sendable {
    /// The user's events after `since` (at most `limit`), and the newest seq they have.
    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventRows
}

/// Client error reports.
protocol ClientLogStore: Sendable {
    /// Stores the batch; false when this user's batch id was stored before.
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws -> Bool
    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry]
}

/// The decisions a send asks for inside its transaction (implemented by `MessageRules`).
protocol SendDecisions: Sendable {
    /// Given the recipient (nil: none) and, only if asked for, the sender's earlier message
    /// with the same client id: insert the message, answer with an earlier one, or throw.
    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws -> SendDecision
    /// The client id turned out to be taken by `existing` (seen when inserting): answer with
    /// it, or throw.
    func replay(_ existing: Message, for new: NewMessage) throws -> Message
    /// The message as its event's data.
    func encode(_ message: Message) -> String
}

/// What a send does after `SendDecisions.decide`.
enum SendDecision: Sendable, Equatable {
    case insert
    case replay(Message)
}

/// A message's recipient, and the facts the may-message rule is decided on.
struct RecipientFacts: Sendable, Equatable {
    var id: Int64
    var username: String
    /// The recipient follows the sender.
    var followsSender: Bool
    /// The recipient has sent the sender a message before.
    var hasWrittenToSender: Bool
}

/// What marking read did.
enum MarkReadOutcome: Sendable {
    case noSuchPeer
    case noSuchMessage
    /// Nothing was unread up to there.
    case unchanged
    case marked([AppendedEvent])
}

/// One row of a newest-first list with the position it sorts by.
struct Listed<Item: Sendable>: Sendable {
    var cursor: Int64
    var item: Item
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

/// Events after a seq as stored, and the newest seq the user has.
struct EventRows: Sendable {
    var events: [EventRow]
    var head: Int64
}

/// One stored event: its data as stored JSON, or the message a `message.created` row points at.
struct EventRow: Sendable, Equatable {
    enum Data: Sendable, Equatable {
        case json(String)
        case message(Message)
    }

    var seq: Int64
    var type: String
    var createdAt: Timestamp
    var data: Data
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
