import ChirpClient
import ChirpModels

/// One message as the conversation screen shows it: the local record (delivery state, ids,
/// media and attachments) with what the message actions add (reply link, reactions, edit
/// time, tombstone) until the kit's record stores them. The record's own fields read through
/// it (`row.sender`, `row.state`, `row.attachments`).
@dynamicMemberLookup
public struct MessageRow: Sendable, Equatable, Identifiable {
    public var message: LocalMessage
    /// The id (server or local) of the message of the same conversation this one answers.
    public var replyTo: String?
    public var reactions: [MessageReaction]
    public var editedAt: Timestamp?
    /// Unsent: shown as "message unsent", no text, media or reactions.
    public var deleted: Bool

    public init(
        _ message: LocalMessage, replyTo: String? = nil, reactions: [MessageReaction] = [], editedAt: Timestamp? = nil,
        deleted: Bool = false
    ) {
        self.message = message
        self.replyTo = replyTo
        self.reactions = reactions
        self.editedAt = editedAt
        self.deleted = deleted
    }

    /// The local id (`sender/clientMessageId`): what the actions name a message by.
    public var id: String { message.id }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LocalMessage, Value>) -> Value {
        get { message[keyPath: keyPath] }
        set { message[keyPath: keyPath] = newValue }
    }

    /// Whether `id` names this message (by its local or its server id).
    public func isNamed(_ id: String) -> Bool { message.id == id || message.serverId == id }

    /// Whether `user` reacted with `emoji`.
    public func hasReaction(_ emoji: String, by user: String) -> Bool {
        reactions.contains { $0.emoji == emoji && $0.users.contains { $0.lowercased() == user.lowercased() } }
    }
}
