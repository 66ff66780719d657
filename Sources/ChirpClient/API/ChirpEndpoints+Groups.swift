import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `PUT /v1/groups/{clientGroupId}`: idempotent by client id (the same call again answers
    /// the same group), so it is retried with the same id.
    public struct CreateGroup: Endpoint {
        public typealias Response = Group
        /// The creator's id for this group; a retry reuses it.
        public var clientGroupId: String
        public var request: CreateGroupRequest
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.createGroup.path(["clientGroupId": clientGroupId]) }
        public var body: CreateGroupRequest? { request }
        public var isIdempotent: Bool { true }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(clientGroupId: String, title: String, members: [String]) {
            self.clientGroupId = clientGroupId
            request = CreateGroupRequest(title: title, members: members)
        }
    }

    /// `GET /v1/groups/{id}`.
    public struct GetGroup: Endpoint {
        public typealias Response = Group
        public var id: String
        public var path: String { APIRoute.group.path(["id": id]) }
        public var allowsConditionalCaching: Bool { false }
        /// Creates the call.
        public init(_ id: String) { self.id = id }
    }

    /// `PATCH /v1/groups/{id}`: a new title (admins only; the same title again changes nothing).
    public struct RenameGroup: Endpoint {
        public typealias Response = Group
        public var id: String
        public var title: String
        public var method: HTTPMethod { .patch }
        public var path: String { APIRoute.renameGroup.path(["id": id]) }
        public var body: UpdateGroupRequest? { UpdateGroupRequest(title: title) }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init(_ id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// `PUT` / `DELETE /v1/groups/{id}/members/{username}` or `…/admins/{username}`
    /// (idempotent): adds or removes a member (removing oneself leaves), or gives or takes
    /// the admin role.
    public struct ChangeGroupMember: Endpoint {
        public typealias Response = EmptyResponse
        /// What changes.
        public enum Change: Sendable {
            case add, remove, makeAdmin, revokeAdmin
        }

        public var id: String
        public var username: String
        public var change: Change
        public var method: HTTPMethod { change == .add || change == .makeAdmin ? .put : .delete }
        public var path: String {
            let route: APIRoute =
                switch change {
                case .add: .addGroupMember
                case .remove: .removeGroupMember
                case .makeAdmin: .addGroupAdmin
                case .revokeAdmin: .removeGroupAdmin
                }
            return route.path(["id": id, "username": username])
        }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init(_ change: Change, _ username: String, in id: String) {
            self.id = id
            self.username = username
            self.change = change
        }
    }

    /// `GET /v1/groups/{id}/messages/{messageId}/reads`: who of the group read a message.
    public struct GroupMessageReads: Endpoint {
        public typealias Response = [GroupReader]
        public var id: String
        public var messageId: String
        public var path: String { APIRoute.groupMessageReads.path(["id": id, "messageId": messageId]) }
        public var allowsConditionalCaching: Bool { false }
        /// Creates the call.
        public init(_ messageId: String, in id: String) {
            self.id = id
            self.messageId = messageId
        }
    }
}
