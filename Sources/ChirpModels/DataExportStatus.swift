/// Where a user's data export stands (`POST /v1/me/export`, and `GET /v1/me/export` while it is
/// being prepared): `pending` while the server writes the archive, `ready` once it can be
/// downloaded, with its size and until when it is kept.
public struct DataExportStatus: Sendable, Hashable, Codable {
    /// `pending` or `ready`.
    public var status: String
    /// When the archive was finished; nil while pending.
    public var readyAt: Timestamp?
    /// When the server removes the archive; nil while pending.
    public var expiresAt: Timestamp?
    /// The archive's size in bytes; nil while pending.
    public var size: Int64?

    public init(status: String, readyAt: Timestamp? = nil, expiresAt: Timestamp? = nil, size: Int64? = nil) {
        self.status = status
        self.readyAt = readyAt
        self.expiresAt = expiresAt
        self.size = size
    }

    public static let pending = "pending"
    public static let ready = "ready"

    enum CodingKeys: String, CodingKey { case status, readyAt, expiresAt, size }

    /// Writes every field, absent ones as `null`, as the API's objects do.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(readyAt, forKey: .readyAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(size, forKey: .size)
    }
}
