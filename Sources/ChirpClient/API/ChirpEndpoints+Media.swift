import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `GET /v1/media/{clientMediaId}/upload`: how many bytes of an upload the server holds.
    public struct MediaUploadStatusCall: Endpoint {
        public typealias Response = MediaUploadStatus
        public var clientMediaId: String
        public var path: String { APIRoute.mediaUploadStatus.path(["clientMediaId": clientMediaId]) }
        public init(clientMediaId: String) { self.clientMediaId = clientMediaId }
    }
}
