/// An attachment as the API describes it (`PUT /v1/media/{clientMediaId}`): the exact bytes the
/// uploader sent, named by the server's `id` and the uploader's `clientMediaId`.
public struct Media: Sendable, Hashable, Codable {
    public var id: String
    public var clientMediaId: String
    /// The media type the uploader declared, such as `image/png`.
    public var contentType: String
    /// Size in bytes.
    public var size: Int64
    /// Lowercase hex SHA-256 of the bytes; also the download's `ETag`.
    public var sha256: String
    /// The name the uploader gave with `?filename=`, if any.
    public var filename: String?
    public var createdAt: Timestamp

    public init(
        id: String, clientMediaId: String, contentType: String, size: Int64, sha256: String,
        filename: String?, createdAt: Timestamp
    ) {
        self.id = id
        self.clientMediaId = clientMediaId
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.filename = filename
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case id, clientMediaId, contentType, size, sha256, filename, createdAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(clientMediaId, forKey: .clientMediaId)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(size, forKey: .size)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(filename, forKey: .filename)
        try container.encode(createdAt, forKey: .createdAt)
    }

    /// The four image types the server checks against their first bytes and serves inline.
    public static let inlineImageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]
    /// The most media one message carries (API.md: `mediaIds`, at most 4).
    public static let maxPerMessage = 4
}

/// The reply of `GET /v1/media/{clientMediaId}/upload` and of a part that does not complete an
/// upload (202): how many bytes the server holds, and the declared total if known.
public struct MediaUploadStatus: Sendable, Hashable, Codable {
    public var received: Int64
    public var total: Int64?

    public init(received: Int64, total: Int64?) {
        self.received = received
        self.total = total
    }

    enum CodingKeys: String, CodingKey { case received, total }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(received, forKey: .received)
        try container.encode(total, forKey: .total)
    }
}
