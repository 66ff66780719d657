import ChirpClient
import ChirpModels

/// One message as the conversation screen shows it: the local record (delivery state, ids)
/// with what part 2 adds to a message (reply link, reactions, edit time, tombstone, media).
/// The record's own fields read through it (`row.sender`, `row.state`).
@dynamicMemberLookup
public struct MessageRow: Sendable, Equatable, Identifiable {
    public var message: LocalMessage
    /// The id (server or local) of the message of the same conversation this one answers.
    public var replyTo: String?
    public var reactions: [MessageReaction]
    public var editedAt: Timestamp?
    /// Unsent: shown as "message unsent", no text, media or reactions.
    public var deleted: Bool
    public var media: [Media]
    /// Names of files attached to a message still waiting to be uploaded and sent.
    public var pendingAttachments: [String]

    public init(
        _ message: LocalMessage, replyTo: String? = nil, reactions: [MessageReaction] = [], editedAt: Timestamp? = nil,
        deleted: Bool = false, media: [Media] = [], pendingAttachments: [String] = []
    ) {
        self.message = message
        self.replyTo = replyTo
        self.reactions = reactions
        self.editedAt = editedAt
        self.deleted = deleted
        self.media = media
        self.pendingAttachments = pendingAttachments
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
