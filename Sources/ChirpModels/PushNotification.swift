/// What a push says (API.md part 4): a new message or message request in a conversation, its
/// sender and, when the subscription allows previews and the conversation is not encrypted,
/// its text. The server encrypts it for each subscription; `chirp watch --notify` prints the
/// same for scripts.
public struct PushNotification: Sendable, Hashable, Codable {
    /// The conversation a push is about: a direct one with `peer`, or `group`.
    public struct Conversation: Sendable, Hashable, Codable {
        /// `direct` or `group`.
        public var kind: String
        public var peer: String?
        public var group: String?

        public static func direct(_ peer: String) -> Conversation {
            Conversation(kind: "direct", peer: peer, group: nil)
        }

        public static func group(_ id: String) -> Conversation {
            Conversation(kind: "group", peer: nil, group: id)
        }
    }

    /// `message`.
    public var type: String
    public var conversation: Conversation
    public var sender: String
    public var messageId: String
    /// The text; null when previews are off (written as `null`, never left out).
    public var text: String?

    public init(conversation: Conversation, sender: String, messageId: String, text: String?) {
        self.type = "message"
        self.conversation = conversation
        self.sender = sender
        self.messageId = messageId
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case type, conversation, sender, messageId, text
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(conversation, forKey: .conversation)
        try container.encode(sender, forKey: .sender)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(text, forKey: .text)
    }
}
