import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `POST /v1/me/export`: prepares an archive of the user's data; 202 with its status.
    /// Idempotent while one is being written, so a retry is harmless.
    public struct PrepareExport: Endpoint {
        public typealias Response = DataExportStatus
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.prepareExport.path() }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init() {}
    }
}
