import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// The `User-Agent` sent when a session is created, shown in `GET /v1/sessions`.
    public static let userAgent: String = {
        #if os(Linux)
            "chirp (Linux)"
        #elseif os(macOS)
            "chirp (macOS)"
        #else
            "chirp"
        #endif
    }()

    /// `GET /v1/sessions`.
    public struct ListSessions: Endpoint {
        public typealias Response = SessionList
        public var path: String { APIRoute.sessions.path() }
        public var allowsConditionalCaching: Bool { false }
        /// Creates the call.
        public init() {}
    }

    /// `DELETE /v1/sessions/{id}`.
    public struct EndSession: Endpoint {
        public typealias Response = EmptyResponse
        /// The session's public id.
        public var id: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.endSession.path(["id": id]) }
        /// Creates the call.
        public init(_ id: String) { self.id = id }
    }

    /// `PUT /v1/me/password`. Not retried: a retry after a lost reply would send the old
    /// password, now wrong, and count toward the login throttle.
    public struct ChangePassword: Endpoint {
        public typealias Response = EmptyResponse
        public var request: ChangePasswordRequest
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.changePassword.path() }
        public var body: ChangePasswordRequest? { request }
        public var isIdempotent: Bool { false }
        /// Creates the call.
        public init(_ request: ChangePasswordRequest) { self.request = request }
    }

    /// `DELETE /v1/me` (not retried: the account is gone after the first).
    public struct DeleteAccount: Endpoint {
        public typealias Response = EmptyResponse
        public var request: DeleteAccountRequest
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.deleteAccount.path() }
        public var body: DeleteAccountRequest? { request }
        public var isIdempotent: Bool { false }
        /// Creates the call.
        public init(_ request: DeleteAccountRequest) { self.request = request }
    }
}
