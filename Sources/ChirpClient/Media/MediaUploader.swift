import ChirpModels
import ChirpNetworking
import Foundation

/// Uploads a file as a media in parts (`Content-Range`), resuming where the server says it
/// stopped (`GET /v1/media/{clientMediaId}/upload`) after a cut, a restart or a cancellation,
/// and reporting progress to a `MediaTransferFeed`.
public struct MediaUploader: Sendable {
    let api: ChirpAPIClient
    let transfer: FileTransfer
    let feed: MediaTransferFeed?
    /// Bytes per part: a cut costs at most this much again.
    public var partSize: Int64 = 8 * 1024 * 1024

    init(api: ChirpAPIClient, transfer: FileTransfer = FileTransfer(), feed: MediaTransferFeed?) {
        self.api = api
        self.transfer = transfer
        self.feed = feed
    }

    /// A file to upload and how the server should name it.
    public struct Upload: Sendable {
        public var file: URL
        public var clientMediaId: String
        public var contentType: String
        public var filename: String?
        public var size: Int64

        public init(file: URL, clientMediaId: String, contentType: String, filename: String?, size: Int64) {
            self.file = file
            self.clientMediaId = clientMediaId
            self.contentType = contentType
            self.filename = filename
            self.size = size
        }
    }

    /// Sends `upload` (the rest of it, if the server already holds a beginning) and returns
    /// the stored media. Progress goes to the feed under `subject`. Throws `NetworkError`
    /// (a server refusal as `.server`); cancelling the task stops it, resumable later.
    public func upload(_ upload: Upload, as subject: MediaTransfer.Subject) async throws(NetworkError) -> Media {
        do {
            let media = try await send(upload, subject)
            feed?.publish(MediaTransfer(subject: subject, bytesDone: upload.size, total: upload.size, state: .finished))
            return media
        } catch {
            feed?.publish(
                MediaTransfer(subject: subject, bytesDone: 0, total: upload.size, state: .failed(error.description)))
            throw error
        }
    }

    private func send(_ upload: Upload, _ subject: MediaTransfer.Subject) async throws(NetworkError) -> Media {
        var url = api.client.server.baseURL.appendingPathComponent(
            APIRoute.uploadMedia.path(["clientMediaId": upload.clientMediaId]))
        if let filename = upload.filename {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "filename", value: filename)]
            url = components.url!
        }
        var headers = ["Content-Type": upload.contentType]
        if let token = api.token { headers["Authorization"] = "Bearer \(token)" }
        let feed = self.feed
        if upload.size == 0 {
            return try decode(
                Media.self, try await transfer.upload(upload.file, offset: 0, length: 0, to: url, headers: headers))
        }
        var offset = try await api.send(ChirpEndpoints.MediaUploadStatusCall(clientMediaId: upload.clientMediaId))
            .received
        // Done before: the last byte again answers the stored media.
        if offset >= upload.size { offset = upload.size - 1 }
        var attempts = 0
        while true {
            let length = min(partSize, upload.size - offset)
            var partHeaders = headers
            partHeaders["Content-Range"] = "bytes \(offset)-\(offset + length - 1)/\(upload.size)"
            let start = offset
            feed?.publish(MediaTransfer(subject: subject, bytesDone: start, total: upload.size, state: .running))
            let response: TransportResponse
            do {
                response = try await transfer.upload(
                    upload.file, offset: offset, length: length, to: url, headers: partHeaders
                ) { sent in
                    feed?.publish(
                        MediaTransfer(subject: subject, bytesDone: start + sent, total: upload.size, state: .running))
                }
            } catch  where error.isTransient && attempts < 3 {
                // A cut: ask where the server stopped and go on from there.
                attempts += 1
                try? await Task.sleep(for: .milliseconds(200 * attempts))
                offset = try await api.send(ChirpEndpoints.MediaUploadStatusCall(clientMediaId: upload.clientMediaId))
                    .received
                continue
            }
            switch response.status {
            case 200, 201:
                return try decode(Media.self, response)
            case 202:
                offset = try decode(MediaUploadStatus.self, response).received
                attempts = 0
            case 409 where Self.errorCode(response) == "upload_offset_mismatch":
                guard attempts < 3 else { throw Self.error(response) }
                attempts += 1
                offset = try await api.send(ChirpEndpoints.MediaUploadStatusCall(clientMediaId: upload.clientMediaId))
                    .received
            default:
                throw Self.error(response)
            }
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ response: TransportResponse) throws(NetworkError) -> T {
        guard (200..<300).contains(response.status) else { throw Self.error(response) }
        do { return try JSONDecoder().decode(T.self, from: response.body) } catch {
            throw .decoding(path: "", reason: String(describing: error))
        }
    }

    static func errorCode(_ response: TransportResponse) -> String? {
        (try? JSONDecoder().decode(APIErrorBody.self, from: response.body))?.error.code
    }

    /// The reply as the network layer's error (the API's envelope when there is one).
    static func error(_ response: TransportResponse) -> NetworkError {
        do {
            try ErrorEnvelopeValidator().validate(response)
            return .http(status: response.status, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        } catch {
            return error
        }
    }
}
