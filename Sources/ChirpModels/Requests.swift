/// `POST /v1/accounts` body.
public struct RegisterRequest: Sendable, Hashable, Codable {
    public var username: String
    public var password: String
    public var displayName: String?

    public init(username: String, password: String, displayName: String? = nil) {
        self.username = username
        self.password = password
        self.displayName = displayName
    }
}

/// `POST /v1/sessions` body.
public struct LoginRequest: Sendable, Hashable, Codable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The reply to account creation and login: the account and a bearer token for it.
public struct AuthResponse: Sendable, Hashable, Codable {
    public var user: User
    public var token: String

    public init(user: User, token: String) {
        self.user = user
        self.token = token
    }
}

/// Body of `PUT /v1/conversations/{username}/messages/{clientMessageId}` and
/// `PUT /v1/tweets/{clientTweetId}`.
public struct TextBody: Sendable, Hashable, Codable {
    public var text: String
    public init(text: String) { self.text = text }
}

/// Body of `PUT /v1/conversations/{username}/messages/{clientMessageId}` (API.md part 2):
/// the text, which may be empty when media are attached, up to 4 media ids, and the id of the
/// message it replies to. Absent optional fields are left out of the JSON.
public struct SendMessageRequest: Sendable, Hashable, Codable {
    /// The text; absent (`""` here) in an encrypted conversation, where `envelope` holds it.
    public var text: String
    public var mediaIds: [String]?
    public var replyTo: String?
    /// The sealed message of an encrypted conversation (API.md part 4): `text` and `replyTo`
    /// travel inside it, and `mediaIds` stay beside it.
    public var envelope: Envelope?

    public init(text: String, mediaIds: [String]? = nil, replyTo: String? = nil) {
        self.text = text
        self.mediaIds = mediaIds
        self.replyTo = replyTo
    }

    /// An encrypted send: the envelope and the (encrypted) attachments' ids.
    public init(envelope: Envelope, mediaIds: [String]? = nil) {
        self.text = ""
        self.mediaIds = mediaIds
        self.envelope = envelope
    }

    enum CodingKeys: String, CodingKey { case text, mediaIds, replyTo, envelope }

    /// `text` is required unless there is an envelope.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        envelope = try container.decodeIfPresent(Envelope.self, forKey: .envelope)
        text = try container.decodeText(forKey: .text, sealed: envelope != nil) ?? ""
        mediaIds = try container.decodeIfPresent([String].self, forKey: .mediaIds)
        replyTo = try container.decodeIfPresent(String.self, forKey: .replyTo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let envelope {
            try container.encode(envelope, forKey: .envelope)
        } else {
            try container.encode(text, forKey: .text)
        }
        try container.encodeIfPresent(mediaIds, forKey: .mediaIds)
        try container.encodeIfPresent(replyTo, forKey: .replyTo)
    }
}

/// Body of `POST /v1/conversations/{username}/read`.
public struct MarkReadRequest: Sendable, Hashable, Codable {
    public var upTo: String
    public init(upTo: String) { self.upTo = upTo }
}

/// The reply of `GET /healthz`.
public struct HealthStatus: Sendable, Hashable, Codable {
    public var status: String
    public init(status: String) { self.status = status }
}
