/// One direct message. `id` is a decimal string; its numeric value orders the messages of a
/// conversation (and is unique across the server).
public struct Message: Sendable, Hashable, Codable {
    public var id: String
    public var clientMessageId: String
    public var sender: String
    public var recipient: String
    public var text: String
    public var createdAt: Timestamp
    public var readByRecipient: Bool
    /// A tombstone: the sender deleted their account (`text` is `""`). Absent in JSON: false.
    public var deleted: Bool

    public init(
        id: String, clientMessageId: String, sender: String, recipient: String, text: String,
        createdAt: Timestamp, readByRecipient: Bool, deleted: Bool = false
    ) {
        self.id = id
        self.clientMessageId = clientMessageId
        self.sender = sender
        self.recipient = recipient
        self.text = text
        self.createdAt = createdAt
        self.readByRecipient = readByRecipient
        self.deleted = deleted
    }

    enum CodingKeys: String, CodingKey {
        case id, clientMessageId, sender, recipient, text, createdAt, readByRecipient, deleted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        clientMessageId = try container.decode(String.self, forKey: .clientMessageId)
        sender = try container.decode(String.self, forKey: .sender)
        recipient = try container.decode(String.self, forKey: .recipient)
        text = try container.decode(String.self, forKey: .text)
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        readByRecipient = try container.decode(Bool.self, forKey: .readByRecipient)
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
    }
}
