/// One message, direct or in a group. `id` is a decimal string; its numeric value orders the
/// messages of a conversation (and is unique across the server, groups included).
public struct Message: Sendable, Hashable, Codable, Tombstonable {
    public var id: String
    public var clientMessageId: String
    public var sender: String
    /// The recipient of a direct message; `""` in a group (`null` in JSON).
    public var recipient: String
    /// The text; `""` in an encrypted message (`null` in JSON), whose text is in `envelope`.
    public var text: String
    public var createdAt: Timestamp
    public var readByRecipient: Bool
    /// A tombstone: the sender unsent it or deleted their account (`text` is `""`, `media` and
    /// `reactions` empty). Absent in JSON: false.
    public var deleted: Bool
    /// Attachments, at most 4 (API.md part 2). Absent in JSON: empty.
    public var media: [Media]
    /// The id of the message of the same conversation this one answers.
    public var replyTo: String?
    /// Reactions, one entry per distinct emoji.
    public var reactions: [MessageReaction]
    /// When the sender last edited the text; nil if never.
    public var editedAt: Timestamp?
    /// A tombstone the server's operators made (a take-down): shown as "removed by the
    /// operators". In JSON only when true.
    public var removedByOperators: Bool
    /// The group's id for a group message (API.md part 3); nil for a direct message (absent
    /// in JSON, which reads as `null`).
    public var group: String?
    /// In a group: how many members other than the sender have read it.
    public var readCount: Int
    /// In a group: the viewer has blocked the sender, so clients hide it. In JSON only when true.
    public var fromBlocked: Bool
    /// A message of an encrypted conversation (API.md part 4): its text, reply link and
    /// attachment keys sealed to the members' devices. Absent in JSON for a plaintext message.
    public var envelope: Envelope?

    public init(
        id: String, clientMessageId: String, sender: String, recipient: String, text: String,
        createdAt: Timestamp, readByRecipient: Bool, deleted: Bool = false,
        media: [Media] = [], replyTo: String? = nil, reactions: [MessageReaction] = [],
        editedAt: Timestamp? = nil, removedByOperators: Bool = false, group: String? = nil, readCount: Int = 0,
        fromBlocked: Bool = false, envelope: Envelope? = nil
    ) {
        self.id = id
        self.clientMessageId = clientMessageId
        self.sender = sender
        self.recipient = recipient
        self.text = text
        self.createdAt = createdAt
        self.readByRecipient = readByRecipient
        self.deleted = deleted
        self.media = media
        self.replyTo = replyTo
        self.reactions = reactions
        self.editedAt = editedAt
        self.removedByOperators = removedByOperators
        self.group = group
        self.readCount = readCount
        self.fromBlocked = fromBlocked
        self.envelope = envelope
    }

    enum CodingKeys: String, CodingKey {
        case id, clientMessageId, sender, recipient, text, createdAt, readByRecipient, deleted
        case media, replyTo, reactions, editedAt, removedByOperators, group, readCount, fromBlocked, envelope
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        clientMessageId = try container.decode(String.self, forKey: .clientMessageId)
        sender = try container.decode(String.self, forKey: .sender)
        recipient = try container.decodeIfPresent(String.self, forKey: .recipient) ?? ""
        envelope = try container.decodeIfPresent(Envelope.self, forKey: .envelope)
        text = envelope == nil ? try container.decode(String.self, forKey: .text) : ""
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        readByRecipient = try container.decode(Bool.self, forKey: .readByRecipient)
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
        media = try container.decodeIfPresent([Media].self, forKey: .media) ?? []
        replyTo = try container.decodeIfPresent(String.self, forKey: .replyTo)
        reactions = try container.decodeIfPresent([MessageReaction].self, forKey: .reactions) ?? []
        editedAt = try container.decodeIfPresent(Timestamp.self, forKey: .editedAt)
        removedByOperators = try container.decodeIfPresent(Bool.self, forKey: .removedByOperators) ?? false
        group = try container.decodeIfPresent(String.self, forKey: .group)
        readCount = try container.decodeIfPresent(Int.self, forKey: .readCount) ?? 0
        fromBlocked = try container.decodeIfPresent(Bool.self, forKey: .fromBlocked) ?? false
    }

    /// Writes every field of API.md part 2, `replyTo` and `editedAt` as `null` when absent;
    /// `removedByOperators` only when true. A group message (part 3) also has `group` and
    /// `readCount`, `recipient` `null`, and `fromBlocked` when true; a direct one is written
    /// as before (no `group`: absent reads as `null`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(clientMessageId, forKey: .clientMessageId)
        try container.encode(sender, forKey: .sender)
        if let group {
            try container.encodeNil(forKey: .recipient)
            try container.encode(group, forKey: .group)
            try container.encode(readCount, forKey: .readCount)
            if fromBlocked { try container.encode(true, forKey: .fromBlocked) }
        } else {
            try container.encode(recipient, forKey: .recipient)
        }
        if let envelope {
            try container.encodeNil(forKey: .text)
            try container.encode(envelope, forKey: .envelope)
        } else {
            try container.encode(text, forKey: .text)
        }
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(readByRecipient, forKey: .readByRecipient)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(media, forKey: .media)
        try container.encode(replyTo, forKey: .replyTo)
        try container.encode(reactions, forKey: .reactions)
        try container.encode(editedAt, forKey: .editedAt)
        if removedByOperators { try container.encode(true, forKey: .removedByOperators) }
    }
}
