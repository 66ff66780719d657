/// Body of `PUT /v1/me/push-subscriptions/{id}`: a browser's `PushSubscription` JSON
/// (`endpoint`, `keys`; its `expirationTime` is ignored) plus whether pushes may show the
/// message's text.
public struct PushSubscriptionRequest: Sendable, Hashable, Codable {
    /// The subscription's keys, base64url: the browser's P-256 key and its 16-byte secret.
    public struct Keys: Sendable, Hashable, Codable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys
    /// Show the message's text in the notification (false when absent: sender and
    /// conversation only).
    public var preview: Bool?

    public init(endpoint: String, keys: Keys, preview: Bool?) {
        self.endpoint = endpoint
        self.keys = keys
        self.preview = preview
    }
}

/// A stored push subscription as the API shows it (its keys stay on the server).
public struct PushSubscriptionInfo: Sendable, Hashable, Codable {
    public var id: String
    public var endpoint: String
    public var preview: Bool
    public var createdAt: Timestamp

    public init(id: String, endpoint: String, preview: Bool, createdAt: Timestamp) {
        self.id = id
        self.endpoint = endpoint
        self.preview = preview
        self.createdAt = createdAt
    }
}

/// Body of `GET /v1/push/key`: the server's VAPID public key (base64url, uncompressed P-256
/// point), a push subscription's `applicationServerKey`.
public struct PushKeyResponse: Sendable, Hashable, Codable {
    public var publicKey: String

    public init(publicKey: String) { self.publicKey = publicKey }
}
