/// Why a user is reported (`POST /v1/reports`).
public enum ReportReason: String, Sendable, Hashable, Codable, CaseIterable {
    case spam, abuse, other
}

/// `POST /v1/reports` body: the reported user, optionally one of their messages the reporter
/// can read, the reason (`spam`, `abuse` or `other`, kept as text so that another word is a
/// 422 rather than malformed JSON) and an optional note of at most 1,000 characters.
public struct ReportRequest: Sendable, Hashable, Codable {
    public var username: String
    public var messageId: String?
    public var reason: String
    public var note: String?
    /// For an encrypted message (API.md part 4): its content key (base64url) and the exact
    /// plaintext JSON that was sealed, which the server checks against the stored envelope.
    public var contentKey: String?
    public var plaintext: String?

    public init(
        username: String, messageId: String? = nil, reason: String, note: String? = nil, contentKey: String? = nil,
        plaintext: String? = nil
    ) {
        self.username = username
        self.messageId = messageId
        self.reason = reason
        self.note = note
        self.contentKey = contentKey
        self.plaintext = plaintext
    }
}

/// The reply to `POST /v1/reports`: the id the report was filed under.
public struct ReportReceipt: Sendable, Hashable, Codable {
    public var id: String
    public init(id: String) { self.id = id }
}
