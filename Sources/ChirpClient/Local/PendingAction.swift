import ChirpModels
import ChirpPersistence

/// A change to a message waiting in the outbox (a reaction, an edit, an unsend), sent after
/// the message itself and after the actions queued before it. It is already applied to the
/// local row; the server's `message.updated` / `message.deleted` confirms it.
public struct PendingAction: StoredRecord {
    public static let tableName = "pending_actions"

    /// What the action does.
    public enum Kind: String, Codable, Sendable {
        case react, unreact, edit, unsend
    }

    /// The queue position (as `order`, in text).
    public var id: String
    /// Strictly increasing in the order actions were queued (and after every message written
    /// before them).
    public var order: Int64
    /// The local id of the message (`LocalMessage.id`).
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
