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

        /// The other person of the conversation, or a group's key (`ConversationKey`).
        public var peer: String
        public var change: Change
        public var method: HTTPMethod {
            switch change {
            case .pin, .mute: .put
            case .unpin, .unmute: .delete
            }
        }
        public var path: String {
            let (direct, group): (APIRoute, APIRoute) =
                switch change {
                case .pin: (.pinConversation, .pinGroup)
                case .unpin: (.unpinConversation, .unpinGroup)
                case .mute: (.muteConversation, .muteGroup)
                case .unmute: (.unmuteConversation, .unmuteGroup)
                }
            return APIRoute.path(direct, or: group, for: peer)
        }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ change: Change, with peer: String) {
            self.peer = peer
            self.change = change
        }
    }
}
