import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `GET /v1/me/settings`.
    public struct GetSettings: Endpoint {
        public typealias Response = UserSettings
        public var path: String { APIRoute.settings.path() }
        /// Creates the call.
        public init() {}
    }

    /// `PATCH /v1/me/settings`: changes the settings given (idempotent).
    public struct UpdateSettings: Endpoint {
        public typealias Response = UserSettings
        /// The settings to change.
        public var update: SettingsUpdate
        public var method: HTTPMethod { .patch }
        public var path: String { APIRoute.updateSettings.path() }
        public var body: SettingsUpdate? { update }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init(_ update: SettingsUpdate) { self.update = update }
    }

    /// `POST /v1/conversations/{username}/accept` or `DELETE /v1/conversations/{username}`:
    /// the answer to the message request `peer` sent.
    public struct AnswerRequest: Endpoint {
        public typealias Response = EmptyResponse
        /// The sender of the request, or a group's key (`ConversationKey`).
        public var peer: String
        /// Accept (else decline).
        public var accept: Bool
        public var method: HTTPMethod { accept ? .post : .delete }
        public var path: String {
            accept
                ? APIRoute.path(.acceptRequest, or: .acceptGroupRequest, for: peer)
                : APIRoute.path(.declineRequest, or: .declineGroupRequest, for: peer)
        }
        /// Retried: a repeat whose first try was answered finds no request (404
        /// `request_not_found`), and the outbox takes that as done and reads the lists again.
        public var isIdempotent: Bool { true }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(accept: Bool, from peer: String) {
            self.peer = peer
            self.accept = accept
        }
    }
}
