import ChirpModels

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
    /// The viewer's unpinned conversations, newest last message first (cursor: that message's
    /// id), without those with a peer the viewer has blocked (the pinned ones:
    /// `ConversationMarkStore.pinnedConversations`): with `requests`, only the requests the
    /// viewer has not accepted (pinned or not), else none of them.
    func conversations(viewer: Int64, before cursor: Int64, limit: Int, requests: Bool) async throws -> [Listed<
        Conversation
    >]
    /// Marks the peer's messages up to `upTo` read and appends `message.read` to the peer's
    /// stream, its data `receipt(peer's username, whether the reader has a pending request
    /// from the peer)`. When `receipt` gives nil, the messages stay unread for the peer and
    /// nothing is appended: only the reader's unread count drops to the peer's unread
    /// messages after `upTo`.
    func markRead(
        reader: Int64, peerKey: String, upTo: Int64, at: Timestamp,
        receipt: @escaping @Sendable (_ peer: String, _ pendingRequest: Bool) throws -> String?
    ) async throws -> MarkReadOutcome
}

/// A message to store.
struct NewMessage: Sendable {
    var sender: Viewer
    /// The recipient as the request named them, and that name's lookup key.
    var recipient: String
    var recipientKey: String
    var clientMessageId: String
    var text: String
    var createdAt: Timestamp
    /// The message of the same conversation this one answers (checked before the send).
    var replyTo: Int64? = nil
    /// Attachments, in order, each the sender's (`MediaService.attachable`).
    var media: [Media] = []
    /// `media` as the API's JSON (`MediaListJSON`), stored with the message.
    var mediaJSON = "[]"
    /// An encrypted message's envelope (`text` is then empty), checked against the members'
    /// devices before the send.
    var envelope: Envelope? = nil
    /// `envelope` as `messages.envelope` stores it (`EnvelopeColumn`), encoded by the service
    /// before the write, as `mediaJSON`.
    var envelopeJSON: String? = nil
}

/// A message's recipient, and the facts the may-message rule is decided on.
struct RecipientFacts: Sendable, Equatable {
    var id: Int64
    var username: String
    /// The recipient follows the sender.
    var followsSender: Bool
    /// The recipient has sent the sender a message before.
    var hasWrittenToSender: Bool
    /// The recipient has blocked the sender.
    var blockedSender: Bool = false
    /// The sender has blocked the recipient.
    var blockedBySender: Bool = false
    /// The recipient takes message requests from everyone (`MessageRequestPolicy.everyone`).
    var takesRequests: Bool = false
    /// The recipient's request from the sender.
    var request: RequestState = .none
    /// The sender has a pending request from the recipient (a reply accepts it).
    var senderHasPendingRequest: Bool = false
    /// Their direct conversation is encrypted (API.md part 4): it takes envelopes only.
    var encrypted: Bool = false
}

/// What marking read did.
enum MarkReadOutcome: Sendable {
    case noSuchPeer
    case noSuchMessage
    /// Nothing was unread up to there.
    case unchanged
    case marked([AppendedEvent])
}
