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
    public var text: String
    public var mediaIds: [String]?
    public var replyTo: String?

    public init(text: String, mediaIds: [String]? = nil, replyTo: String? = nil) {
        self.text = text
        self.mediaIds = mediaIds
        self.replyTo = replyTo
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
