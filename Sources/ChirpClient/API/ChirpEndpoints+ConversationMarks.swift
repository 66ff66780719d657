import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `PUT` / `DELETE /v1/conversations/{username}/pin` or `…/mute` (idempotent).
    public struct MarkConversation: Endpoint {
        public typealias Response = EmptyResponse
        /// Which mark, set or taken off.
        public enum Change: Sendable {
            case pin, unpin, mute, unmute
        }

        /// The other person of the conversation.
        public var peer: String
        public var change: Change
        public var method: HTTPMethod {
            switch change {
            case .pin, .mute: .put
            case .unpin, .unmute: .delete
            }
        }
        public var path: String {
            let route: APIRoute = switch change {
            case .pin: .pinConversation
            case .unpin: .unpinConversation
            case .mute: .muteConversation
            case .unmute: .unmuteConversation
            }
            return route.path(["username": peer])
        }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ change: Change, with peer: String) {
            self.peer = peer
            self.change = change
        }
    }
}
