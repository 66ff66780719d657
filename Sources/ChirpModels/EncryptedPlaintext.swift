/// What an `Envelope` seals: the UTF-8 JSON `{"text", "replyTo"?, "media": [...]}` of a message
/// in an encrypted conversation. `replyTo` is left out when nil.
public struct EncryptedPlaintext: Sendable, Hashable, Codable {
    public var text: String
    /// The id of the message of the same conversation this one answers (as `Message.replyTo`).
    public var replyTo: String?
    /// The attachments' keys; their encrypted bytes are uploads the server links by `mediaIds`.
    public var media: [EncryptedMediaKey]

    public init(text: String, replyTo: String? = nil, media: [EncryptedMediaKey] = []) {
        self.text = text
        self.replyTo = replyTo
        self.media = media
    }

    enum CodingKeys: String, CodingKey { case text, replyTo, media }

    /// Reads `media` as empty when it is absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        replyTo = try container.decodeIfPresent(String.self, forKey: .replyTo)
        media = try container.decodeIfPresent([EncryptedMediaKey].self, forKey: .media) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(replyTo, forKey: .replyTo)
        try container.encode(media, forKey: .media)
    }
}

/// One attachment of an encrypted message: where its encrypted bytes are and how to open them.
/// `key` (32 bytes), `nonce` (12 bytes) and `sha256` (of the uploaded, encrypted bytes) are
/// base64url without padding; `byteCount` is the length of the file itself.
public struct EncryptedMediaKey: Sendable, Hashable, Codable {
    /// The upload's server id (`Media.id`).
    public var id: String
    public var key: String
    public var nonce: String
    public var sha256: String
    /// The file's real media type, such as `image/png` (the upload itself is
    /// `application/octet-stream`).
    public var contentType: String
    /// The file's name, left out when nil.
    public var name: String?
    public var byteCount: Int

    public init(
        id: String, key: String, nonce: String, sha256: String, contentType: String, name: String? = nil,
        byteCount: Int
    ) {
        self.id = id
        self.key = key
        self.nonce = nonce
        self.sha256 = sha256
        self.contentType = contentType
        self.name = name
        self.byteCount = byteCount
    }
}
