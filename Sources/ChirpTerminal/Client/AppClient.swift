import ChirpClient
import ChirpModels
import ChirpNetworking
import Foundation

/// What the terminal app needs from the outside world, as a struct of closures: `live` runs on
/// `AccountManager` and `UserSession`; `failing` fails every call, so a test states exactly
/// which ones a feature may use.
public struct AppClient: Sendable {
    /// A change from the sync engine, or one the client's data went through.
    public enum SyncUpdate: Sendable, Equatable {
        case event(Event)
        case connection(String)
        /// The local data changed (`UserSession.changes()`): a screen showing it reads again.
        case changed(LocalChange)
        /// An attachment's upload or download moved on (bytes so far of the total).
        case transfer(TransferProgress)
    }

    /// A mark on a conversation (`markConversation`).
    public enum ConversationMark: Sendable, Equatable {
        case pin, unpin, mute, unmute
    }

    /// A message to send: its text, the message it answers, the files attached to it.
    /// A change to a group's members (`changeGroup`).
    public enum GroupChange: Sendable, Equatable {
        case add, remove, makeAdmin, revokeAdmin, leave
    }

    public struct Outgoing: Sendable, Equatable {
        public var text: String
        /// The local id of the message it answers, if any.
        public var replyTo: String?
        public var attachments: [URL]
        public init(text: String, replyTo: String? = nil, attachments: [URL] = []) {
            self.text = text
            self.replyTo = replyTo
            self.attachments = attachments
        }
    }

    /// Start-up (`ChirpClientApp.start`): the username of a session kept from an earlier run,
    /// if any; throws `StartupFailure` naming the step that failed.
    public var restore: @Sendable () async throws -> String?
    public var login: @Sendable (_ username: String, _ password: String) async throws -> String
    public var register: @Sendable (_ username: String, _ password: String) async throws -> String
    public var logout: @Sendable () async throws -> Void
    /// The conversation list from the local database; with `refresh`, refreshed from the server
    /// first when it answers. Live events keep the local copy current, so they read without.
    public var conversations: @Sendable (_ refresh: Bool) async throws -> [ConversationSummary]
    /// The newest `limit` messages with a peer from the local database (refreshed first with
    /// `refresh`, when the server answers); `hasMore` when older ones exist.
    public var messages:
        @Sendable (_ peer: String, _ limit: Int, _ refresh: Bool) async throws -> (
            messages: [LocalMessage], hasMore: Bool
        )
    /// Stores a message as pending and returns at once, before any network call (the screen
    /// shows it pending); the outbox uploads its attachments and sends it in the background,
    /// and the result arrives as a `.changed` update. Throws only when it cannot be stored (an
    /// invalid text, an unreadable file).
    public var send: @Sendable (_ peer: String, _ message: Outgoing) async throws -> Void
    /// Puts a failed message back in the outbox; the drain sends it in the background.
    public var retry: @Sendable (_ messageID: String) async throws -> Void
    public var markRead: @Sendable (_ peer: String) async -> Void
    /// A keystroke in the conversation with `peer` (the client decides when to notify).
    public var typing: @Sendable (_ peer: String) async -> Void
    public var timeline: @Sendable () async throws -> [TimelineEntry]
    public var tweet: @Sendable (_ text: String) async throws -> Void
    /// Blocks a user (their conversation and tweets leave the local lists).
    public var block: @Sendable (_ username: String) async throws -> Void = { _ in
        throw UnexpectedCall(description: "AppClient.block was not expected")
    }
    /// Pins, unpins, mutes or unmutes the conversation with `peer` (shown in the local list at
    /// once; the outbox sends it).
    public var markConversation: @Sendable (_ peer: String, _ mark: ConversationMark) async throws -> Void = { _, _ in
        throw UnexpectedCall(description: "AppClient.markConversation was not expected")
    }
    /// The message requests waiting for an answer, from the local database; with `refresh`,
    /// refreshed from the server first when it answers.
    public var requests: @Sendable (_ refresh: Bool) async throws -> [ConversationSummary] = { _ in
        throw UnexpectedCall(description: "AppClient.requests was not expected")
    }
    /// Accepts (or declines) the request from `peer` (shown in the local lists at once; the
    /// outbox sends it).
    public var answerRequest: @Sendable (_ peer: String, _ accept: Bool) async throws -> Void = { _, _ in
        throw UnexpectedCall(description: "AppClient.answerRequest was not expected")
    }
    /// Creates a group titled `title` of this user and `members`; returns its conversation key
    /// (`ConversationKey.group`).
    public var createGroup: @Sendable (_ title: String, _ members: [String]) async throws -> String = { _, _ in
        throw UnexpectedCall(description: "AppClient.createGroup was not expected")
    }
    /// Group `id` (its title, members and roles); with `refresh`, read from the server first.
    public var group: @Sendable (_ id: String, _ refresh: Bool) async throws -> LocalGroup? = { _, _ in
        throw UnexpectedCall(description: "AppClient.group was not expected")
    }
    /// A change to group `id`'s members: `username` added, removed, made an admin or no longer
    /// one, or this user leaving.
    public var changeGroup: @Sendable (_ id: String, _ username: String, _ change: GroupChange) async throws -> Void = {
        _, _, _ in
        throw UnexpectedCall(description: "AppClient.changeGroup was not expected")
    }
    /// Turns encryption on for the conversation with `peer` (a user, or a group's key), for good.
    public var turnOnEncryption: @Sendable (_ peer: String) async throws -> Void = { _ in
        throw UnexpectedCall(description: "AppClient.turnOnEncryption was not expected")
    }
    /// The safety number of the direct conversation with `peer` (60 digits in 12 groups).
    public var safetyNumber: @Sendable (_ peer: String) async throws -> String = { _ in
        throw UnexpectedCall(description: "AppClient.safetyNumber was not expected")
    }
    /// Reports a user to the server's operators, with a reason.
    public var report: @Sendable (_ username: String, _ reason: ReportReason) async throws -> Void = { _, _ in
        throw UnexpectedCall(description: "AppClient.report was not expected")
    }
    /// Adds (or, with `remove`, takes back) this user's reaction to a message (its local id).
    public var react:
        @Sendable (_ peer: String, _ messageId: String, _ emoji: String, _ remove: Bool) async throws -> Void = {
            _, _, _, _ in
            throw UnexpectedCall(description: "AppClient.react was not expected")
        }
    /// Replaces the text of one of this user's messages (within 15 minutes of sending it).
    public var edit: @Sendable (_ peer: String, _ messageId: String, _ text: String) async throws -> Void = { _, _, _ in
        throw UnexpectedCall(description: "AppClient.edit was not expected")
    }
    /// Unsends one of this user's messages: a tombstone for both people.
    public var unsend: @Sendable (_ peer: String, _ messageId: String) async throws -> Void = { _, _ in
        throw UnexpectedCall(description: "AppClient.unsend was not expected")
    }
    /// Messages of this user's conversations (only `peer`'s when given) holding every word of
    /// `query`, newest first.
    public var search: @Sendable (_ query: String, _ peer: String?) async throws -> [Message] = { _, _ in
        throw UnexpectedCall(description: "AppClient.search was not expected")
    }
    /// Name, type and size of a file about to be attached; throws when it cannot be read.
    public var inspectFile: @Sendable (_ path: String) throws -> AttachmentFile = { _ in
        throw UnexpectedCall(description: "AppClient.inspectFile was not expected")
    }
    /// Downloads an attachment into `destination` (a file or a directory), or into the local
    /// cache when nil; returns where the file is.
    public var download: @Sendable (_ media: Media, _ destination: URL?) async throws -> URL = { _, _ in
        throw UnexpectedCall(description: "AppClient.download was not expected")
    }
    /// Why the server refused queued message actions since the last call (each was undone
    /// locally): an edit after the window, a reaction on an unsent message.
    public var refusedActions: @Sendable () -> [String] = { [] }
    /// The wall clock (the edit window is 15 minutes of it).
    public var wallClock: @Sendable () -> Timestamp = { Timestamp.now() }
    /// The user's sessions on the server, this one marked `current`.
    public var sessions: @Sendable () async throws -> [SessionSummary] = {
        throw UnexpectedCall(description: "AppClient.sessions was not expected")
    }
    /// Ends one of the user's other sessions.
    public var endSession: @Sendable (_ id: String) async throws -> Void = { _ in
        throw UnexpectedCall(description: "AppClient.endSession was not expected")
    }
    /// Changes the password (current, new); the user's other sessions end.
    public var changePassword: @Sendable (_ current: String, _ new: String) async throws -> Void = { _, _ in
        throw UnexpectedCall(description: "AppClient.changePassword was not expected")
    }
    /// Deletes the account (the password again) and wipes its local data, as logging out does.
    public var deleteAccount: @Sendable (_ password: String) async throws -> Void = { _ in
        throw UnexpectedCall(description: "AppClient.deleteAccount was not expected")
    }
    /// Live events, connection changes and local data changes until the stream's consumer stops.
    public var updates: @Sendable () -> AsyncStream<SyncUpdate>
    public var saveTheme: @Sendable (Theme.Name) -> Void
    /// Whether this user turned the bell on new messages on (Settings); off when never set.
    public var loadBell: @Sendable () -> Bool = { false }
    /// Remembers the bell setting for this user, where the theme is kept.
    public var saveBell: @Sendable (_ on: Bool) -> Void = { _ in }
    /// Rings the terminal bell (`TerminalApp` writes it to the terminal; nothing elsewhere).
    public var bell: @Sendable () async -> Void = {}
    /// The keys (`ConversationKey`) of the conversations this user muted, from the local copy.
    public var mutedConversations: @Sendable () async throws -> Set<String> = {
        throw UnexpectedCall(description: "AppClient.mutedConversations was not expected")
    }
    public var now: @Sendable () -> ContinuousClock.Instant
    /// A clock tick about ten times a second (typing expiry, spinners), until the consumer stops.
    public var ticks: @Sendable () -> AsyncStream<ContinuousClock.Instant>

    /// Creates a client from its closures.
    public init(
        restore: @escaping @Sendable () async throws -> String?,
        login: @escaping @Sendable (String, String) async throws -> String,
        register: @escaping @Sendable (String, String) async throws -> String,
        logout: @escaping @Sendable () async throws -> Void,
        conversations: @escaping @Sendable (Bool) async throws -> [ConversationSummary],
        messages: @escaping @Sendable (String, Int, Bool) async throws -> (messages: [LocalMessage], hasMore: Bool),
        send: @escaping @Sendable (String, Outgoing) async throws -> Void,
        retry: @escaping @Sendable (String) async throws -> Void,
        markRead: @escaping @Sendable (String) async -> Void,
        typing: @escaping @Sendable (String) async -> Void,
        timeline: @escaping @Sendable () async throws -> [TimelineEntry],
        tweet: @escaping @Sendable (String) async throws -> Void,
        updates: @escaping @Sendable () -> AsyncStream<SyncUpdate>,
        saveTheme: @escaping @Sendable (Theme.Name) -> Void,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        ticks: @escaping @Sendable () -> AsyncStream<ContinuousClock.Instant>
    ) {
        self.restore = restore
        self.login = login
        self.register = register
        self.logout = logout
        self.conversations = conversations
        self.messages = messages
        self.send = send
        self.retry = retry
        self.markRead = markRead
        self.typing = typing
        self.timeline = timeline
        self.tweet = tweet
        self.updates = updates
        self.saveTheme = saveTheme
        self.now = now
        self.ticks = ticks
    }

    /// One line for a banner: what went wrong and what to do.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError:
            switch error {
            case .transport, .timeout:
                return "Cannot reach the server: is it running? Your messages wait in the outbox."
            case .server(401, "invalid_credentials", _, _):
                return "Wrong username or password: try again (Ctrl-R to register instead)."
            case .server(401, _, _, _): return "Your session has expired: log in again."
            case .server(_, _, let message, _): return message
            default: return error.description
            }
        case let error as AccountError: return error.description
        case let error as OutboxError: return error.description
        default: return String(describing: error)
        }
    }
}

/// A failure a test did not expect.
public struct UnexpectedCall: Error, CustomStringConvertible {
    public var description: String
}

extension AppClient {
    /// Fails every call (and records which): tests override the ones a feature may use.
    public static var failing: AppClient {
        @Sendable func fail(_ name: String) -> UnexpectedCall {
            UnexpectedCall(description: "AppClient.\(name) was not expected")
        }
        return AppClient(
            restore: { nil },
            login: { _, _ in throw fail("login") }, register: { _, _ in throw fail("register") },
            logout: { throw fail("logout") },
            conversations: { _ in throw fail("conversations") }, messages: { _, _, _ in throw fail("messages") },
            send: { _, _ in throw fail("send") }, retry: { _ in throw fail("retry") }, markRead: { _ in },
            typing: { _ in },
            timeline: { throw fail("timeline") }, tweet: { _ in throw fail("tweet") },
            updates: { AsyncStream { $0.finish() } }, saveTheme: { _ in }, now: { .now },
            ticks: { AsyncStream { $0.finish() } })
    }
}
