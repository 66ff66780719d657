import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `GET /v1/admin/reports?status=open|resolved`: the reports queue, newest first (operators).
    public struct ModerationReports: Endpoint {
        public typealias Response = Page<ModerationReport>
        /// The resolved reports instead of the open ones.
        public var resolved: Bool
        /// Which page of the list.
        public var page: PageParameters
        public var path: String { APIRoute.adminReports.path() }
        public var query: [(name: String, value: String)] {
            [("status", resolved ? ModerationReport.resolved : ModerationReport.open)] + page.query
        }
        /// Creates the call.
        public init(resolved: Bool = false, page: PageParameters = .init()) {
            self.resolved = resolved
            self.page = page
        }
    }

    /// `POST /v1/admin/reports/{id}/resolve`: does the action, then closes the report. Not
    /// retried (a retry of one that went through is a 409).
    public struct ResolveReport: Endpoint {
        public typealias Response = ModerationReport
        /// The report's id.
        public var id: String
        public var body: ResolveReportRequest?
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.adminResolveReport.path(["id": id]) }
        /// Creates the call.
        public init(_ id: String, action: ModerationAction) {
            self.id = id
            body = ResolveReportRequest(action: action.rawValue)
        }
    }

    /// `PUT` (suspend) or `DELETE` (lift) `/v1/admin/users/{username}/suspension`; idempotent.
    public struct Suspension: Endpoint {
        public typealias Response = EmptyResponse
        /// The account.
        public var username: String
        /// Lift the suspension instead.
        public var lift: Bool
        public var method: HTTPMethod { lift ? .delete : .put }
        public var path: String {
            (lift ? APIRoute.adminUnsuspend : APIRoute.adminSuspend).path(["username": username])
        }
        /// Creates the call.
        public init(_ username: String, lift: Bool = false) {
            self.username = username
            self.lift = lift
        }
    }

    /// `DELETE /v1/admin/messages/{messageId}`: takes a message down; idempotent.
    public struct RemoveMessage: Endpoint {
        public typealias Response = EmptyResponse
        /// The message's server id.
        public var messageId: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.adminRemoveMessage.path(["messageId": messageId]) }
        /// Creates the call.
        public init(_ messageId: String) { self.messageId = messageId }
    }

    /// `GET /v1/admin/stats`: the server's figures.
    public struct ServerStats: Endpoint {
        public typealias Response = ServerFigures
        public var path: String { APIRoute.adminStats.path() }
        /// Creates the call.
        public init() {}
    }

    /// `GET /v1/admin/audit`: operator actions, newest first.
    public struct AuditLog: Endpoint {
        public typealias Response = Page<AuditEntry>
        /// Which page of the list.
        public var page: PageParameters
        public var path: String { APIRoute.adminAudit.path() }
        public var query: [(name: String, value: String)] { page.query }
        /// Creates the call.
        public init(page: PageParameters = .init()) { self.page = page }
    }
}
