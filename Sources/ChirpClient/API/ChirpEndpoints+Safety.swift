import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `PUT /v1/users/{username}/block` (idempotent).
    public struct Block: Endpoint {
        public typealias Response = EmptyResponse
        /// The user to block.
        public var username: String
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.block.path(["username": username]) }
        /// Creates the call.
        public init(_ username: String) { self.username = username }
    }

    /// `DELETE /v1/users/{username}/block` (idempotent).
    public struct Unblock: Endpoint {
        public typealias Response = EmptyResponse
        /// The user to unblock.
        public var username: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.unblock.path(["username": username]) }
        /// Creates the call.
        public init(_ username: String) { self.username = username }
    }

    /// `GET /v1/me/blocks`: the users this user blocked, newest block first.
    public struct ListBlocks: Endpoint {
        public typealias Response = Page<User>
        /// Which page of the list.
        public var page: PageParameters
        public var path: String { APIRoute.blocks.path() }
        public var query: [(name: String, value: String)] { page.query }
        /// Creates the call.
        public init(page: PageParameters = .init()) { self.page = page }
    }

    /// `POST /v1/reports`: not idempotent (a retry could file it twice), so not retried.
    public struct Report: Endpoint {
        public typealias Response = ReportReceipt
        /// The report.
        public var report: ReportRequest
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.report.path() }
        public var body: ReportRequest? { report }
        /// Creates the call.
        public init(_ report: ReportRequest) { self.report = report }
    }
}
