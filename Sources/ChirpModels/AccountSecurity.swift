/// One of the viewer's sessions, as `GET /v1/sessions` lists it. `id` is a public id, not the
/// token or its digest; `userAgent` is that of the login or registration that created it.
public struct SessionSummary: Sendable, Hashable, Codable {
    public var id: String
    public var createdAt: Timestamp
    public var lastUsedAt: Timestamp
    public var userAgent: String?
    /// Whether this is the session of the request that listed it.
    public var current: Bool

    public init(id: String, createdAt: Timestamp, lastUsedAt: Timestamp, userAgent: String?, current: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
    }

    enum CodingKeys: String, CodingKey { case id, createdAt, lastUsedAt, userAgent, current }

    /// Writes `userAgent` as `null` when unknown (the field is always present).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(current, forKey: .current)
    }
}

/// The reply of `GET /v1/sessions`: `{"items": [...]}`, newest session first.
public struct SessionList: Sendable, Hashable, Codable {
    public var items: [SessionSummary]
    public init(items: [SessionSummary]) { self.items = items }
}

/// `PUT /v1/me/password` body.
public struct ChangePasswordRequest: Sendable, Hashable, Codable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

/// `DELETE /v1/me` body: the password again, so a stolen token alone cannot delete the account.
public struct DeleteAccountRequest: Sendable, Hashable, Codable {
    public var password: String
    public init(password: String) { self.password = password }
}

/// `user.deleted` data: the account of `username` is gone (its messages are tombstones).
public struct UserDeletedNotice: Sendable, Hashable, Codable {
    public var username: String
    public init(username: String) { self.username = username }
}
