import ChirpModels

/// Changes to stored messages (reactions, edits, unsends), reply links and search. The rules
/// are `MessageActionRules`: storage fetches the facts inside the transaction, asks the rule
/// what to do, and writes the answer with both people's events.
protocol MessageActionStore: Sendable {
    /// Whether message `id` belongs to the conversation of `sender` and the user with
    /// `recipientKey`.
    func replyTarget(_ id: Int64, sender: Int64, recipientKey: String) async throws -> ReplyTargetCheck
    /// Whether message `id` is one of group `groupId`'s that `viewer` sees (`GroupSQL.visible`):
    /// `.notInConversation` also when the viewer is not in the group.
    func replyTarget(_ id: Int64, viewer: Int64, groupId: Int64) async throws -> ReplyTargetCheck
    /// In one transaction: reads message `id` of the viewer's conversation with the peer and
    /// the block facts, asks `change`, writes what it answers (the message's new content, its
    /// reactions as `encoding.reactionsColumn`, or its tombstone), and appends
    /// `message.updated` (`encoding.updated`, the whole message) or `message.deleted`
    /// (`encoding.deleted`) to both people's streams.
    func changeMessage(
        _ id: Int64, viewer: Int64, peerKey: String, at: Timestamp, encoding: any MessageChangeEncoding,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome
    /// Messages of the viewer's conversations (only the one with the peer when given) whose
    /// search words include every one of `words`, not unsent, ids below `before`, newest first,
    /// at most `limit`; nil: no such peer.
    func searchMessages(viewer: Int64, peerKey: String?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
}

/// What checking a reply link found.
enum ReplyTargetCheck: Sendable, Equatable {
    case noSuchRecipient
    case notInConversation
    case valid
}

/// A stored message and what the action rules decide on.
struct MessageFacts: Sendable {
    var message: Message
    /// The acting user is the message's sender.
    var viewerIsSender: Bool
    /// The acting user has blocked the peer.
    var viewerBlockedPeer: Bool
    /// The peer has blocked the acting user.
    var peerBlockedViewer: Bool
}

/// What an action does to a message.
enum MessageChange: Sendable, Equatable {
    /// Nothing (the change is already there: an idempotent repeat).
    case none
    /// Store this text, edit time and reactions.
    case update(Message)
    /// Make it a tombstone for both people.
    case unsend
}

/// What `changeMessage` did.
enum MessageChangeOutcome: Sendable {
    case noSuchPeer
    case noSuchMessage
    /// Nothing changed; the message as stored.
    case unchanged(Message)
    /// The message as now stored, and the events appended.
    case changed(Message, [AppendedEvent])
}
