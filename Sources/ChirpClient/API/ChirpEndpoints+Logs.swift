import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `POST /v1/logs`: idempotent by batch id, so retried.
    public struct UploadLogs: Endpoint {
        public typealias Response = LogUploadReceipt
        /// The batch to report.
        public var upload: LogUpload
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.logs.path() }
        public var body: LogUpload? { upload }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init(_ upload: LogUpload) { self.upload = upload }
    }
}
