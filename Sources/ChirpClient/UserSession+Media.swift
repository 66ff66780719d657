import ChirpModels
import ChirpNetworking
import Foundation

extension UserSession {
    /// Stores a message with attachments (files, at most 4) as pending and returns it at once;
    /// the outbox uploads the attachments, in order, then sends the message, resuming after a
    /// cut or a restart. The text may be empty when there are attachments. Throws
    /// `OutboxError.invalidText` or `.invalidAttachment` (nothing stored).
    @discardableResult
    public func enqueue(_ text: String, to peer: String, attachments: [URL]) async throws -> LocalMessage {
        let (message, _) = try await outbox.enqueue(to: peer, text: text, attachments: attachments)
        typingSender.stopped(to: peer)
        return message
    }

    /// `enqueue(_:to:attachments:)`, then waits for the drain that tries it; returns the
    /// message as it stands after it (sent, still pending, or failed) and what the drain did.
    public func send(_ text: String, to peer: String, attachments: [URL]) async throws -> (message: LocalMessage, report: OutboxReport) {
        let (pending, drain) = try await outbox.enqueue(to: peer, text: text, attachments: attachments)
        typingSender.stopped(to: peer)
        let report = try await drain.value
        return (try await database.messages.fetch(id: pending.id) ?? pending, report)
    }

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
