import ChirpModels
import ChirpPersistence

/// A change waiting in the outbox, sent after the actions and messages of its conversation
/// queued before it: to a message (a reaction, an edit, an unsend; `message.updated` /
/// `message.deleted` confirms it) or to the conversation (a pin or mute, or the answer to a
/// message request, with no message: `conversation.updated` confirms it). It is already
/// applied to the local row.
public struct PendingAction: StoredRecord {
    public static let tableName = "pending_actions"

    /// What the action does.
    public enum Kind: String, Codable, Sendable {
        case react, unreact, edit, unsend
        case pin, unpin, mute, unmute
        case accept, decline

        /// A pin or mute, on the conversation rather than a message.
        public var isConversationMark: Bool { [.pin, .unpin, .mute, .unmute].contains(self) }
        /// An answer to a message request, on the conversation rather than a message.
        public var isRequestAnswer: Bool { self == .accept || self == .decline }
    }

    /// The queue position (as `order`, in text).
    public var id: String
    /// Strictly increasing in the order actions were queued (and after every message written
    /// before them).
    public var order: Int64
    /// The local id of the message (`LocalMessage.id`); empty for a pin or mute.
    public var messageId: String
    /// The conversation, lowercased.
    public var peer: String
    public var kind: Kind
    /// The emoji of a reaction, the text of an edit.
    public var value: String

    init(order: Int64, messageId: String, peer: String, kind: Kind, value: String) {
        id = String(order)
        self.order = order
        self.messageId = messageId
        self.peer = peer
        self.kind = kind
        self.value = value
    }
}

/// A `message.deleted` that arrived before the message it names: kept, and applied when the
/// message arrives.
struct EarlyTombstone: StoredRecord {
    static let tableName = "early_tombstones"
    /// The message's server id.
    var id: String
}
