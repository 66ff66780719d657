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

    public init(
        id: String, clientMessageId: String, sender: String, recipient: String, text: String,
        createdAt: Timestamp, readByRecipient: Bool
    ) {
        self.id = id
        self.clientMessageId = clientMessageId
        self.sender = sender
        self.recipient = recipient
        self.text = text
        self.createdAt = createdAt
        self.readByRecipient = readByRecipient
    }
}
