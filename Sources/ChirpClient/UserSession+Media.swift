import ChirpModels
import ChirpNetworking
import Foundation

extension UserSession {
    /// Progress of every upload and download from now on, until the consumer stops.
    public func mediaTransfers() -> AsyncStream<MediaTransfer> {
        transfers.stream()
    }

    /// Downloads `media` (with progress on `mediaTransfers()`) into the local cache, or returns
    /// the cached copy; with `destination`, copies it there too and returns that.
    public func download(_ media: Media, to destination: URL? = nil) async throws -> URL {
        let cached = try await mediaCache.fetch(media, api: api, transfer: FileTransfer(), feed: transfers)
        guard let destination else { return cached }
        if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
        try FileManager.default.copyItem(at: cached, to: destination)
        return destination
    }

    /// Uploads one file as a media right away (not through the outbox), with progress under
    /// `.upload(localMessageId: "", …)`.
    public func upload(_ file: URL, clientMediaId: String = UUID().uuidString) async throws -> Media {
        let described = try PendingAttachment.describe(file, messageId: "", position: 0)
        return try await uploader.upload(
            MediaUploader.Upload(file: file, clientMediaId: clientMediaId, contentType: described.contentType, filename: described.filename, size: described.size),
            as: .upload(localMessageId: "", index: 0, clientMediaId: clientMediaId))
    }
}
