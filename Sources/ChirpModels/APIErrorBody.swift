/// The error envelope every failed call returns:
/// `{"error": {"code": "snake_case", "message": "human text", "field": "name"?}}`.
public struct APIErrorBody: Sendable, Hashable, Codable {
    /// The inner object of the envelope.
    public struct Detail: Sendable, Hashable, Codable {
        public var code: String
        public var message: String
        public var field: String?
        /// With `devices_changed` (API.md part 4): every member's current devices, by
        /// username, to seal the envelope to again.
        public var devices: [String: [Device]]?

        public init(code: String, message: String, field: String? = nil, devices: [String: [Device]]? = nil) {
            self.code = code
            self.message = message
            self.field = field
            self.devices = devices
        }
    }

    public var error: Detail

    public init(code: String, message: String, field: String? = nil, devices: [String: [Device]]? = nil) {
        self.error = Detail(code: code, message: message, field: field, devices: devices)
    }
}

/// The error codes the API uses, by name.
public enum APIErrorCode {
    public static let malformedJSON = "malformed_json"
    public static let invalidParameter = "invalid_parameter"
    public static let unauthorized = "unauthorized"
    public static let invalidToken = "invalid_token"
    public static let tokenExpired = "token_expired"
    public static let invalidCredentials = "invalid_credentials"
    public static let forbidden = "forbidden"
    public static let dmNotAllowed = "dm_not_allowed"
    public static let notFound = "not_found"
    public static let userNotFound = "user_not_found"
    public static let messageNotFound = "message_not_found"
    public static let tweetNotFound = "tweet_not_found"
    public static let methodNotAllowed = "method_not_allowed"
    public static let usernameTaken = "username_taken"
    public static let clientIdReused = "client_id_reused"
    public static let bodyTooLarge = "body_too_large"
    public static let validationFailed = "validation_failed"
    public static let cannotFollowSelf = "cannot_follow_self"
    public static let cannotMessageSelf = "cannot_message_self"
    public static let cannotBlockSelf = "cannot_block_self"
    /// A follow or message that a block between the two users rules out.
    public static let blocked = "blocked"
    public static let rateLimited = "rate_limited"
    public static let unavailable = "unavailable"
    public static let internalError = "internal_error"
    public static let sessionNotFound = "session_not_found"
}
