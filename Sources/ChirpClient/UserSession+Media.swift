import ChirpModels
import ChirpNetworking
import ChirpPersistence
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
        guard var target = destination else { return cached }
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
            // A folder: the file goes into it under its own name; the folder is never replaced.
            target = target.appendingPathComponent(Self.savedName(of: media))
            if files.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
                throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: target.path])
            }
        }
        // Copied beside the target first, then moved over it: an old file is replaced whole or not at all.
        let partial = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).\(UUID().uuidString).part")
        try files.copyItem(at: cached, to: partial)
        do {
            if files.fileExists(atPath: target.path) {
                _ = try files.replaceItemAt(target, withItemAt: partial)
            } else {
                try files.moveItem(at: partial, to: target)
            }
        } catch {
            try? files.removeItem(at: partial)
            throw error
        }
        return target
    }

    /// The name a media is saved under in a folder: its filename's last component, else its id.
    static func savedName(of media: Media) -> String {
        let name = (media.filename ?? "").split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty || name == "." || name == ".." ? "media-\(media.id)" : name
    }

    /// Uploads one file as a media right away (not through the outbox), with progress under
    /// `.upload(localMessageId: "", …)`.
    public func upload(_ file: URL, clientMediaId: String = UUID().uuidString) async throws -> Media {
        let described = try PendingAttachment.describe(file, messageId: "", position: 0)
        return try await uploader.upload(
            MediaUploader.Upload(
                file: file, clientMediaId: clientMediaId, contentType: described.contentType,
                filename: described.filename, size: described.size),
            as: .upload(localMessageId: "", index: 0, clientMediaId: clientMediaId))
    }
}

extension UserSession {
    /// A media this device has seen on a stored message, by its server id.
    public func knownMedia(id: String) async throws -> Media? {
        let carrying = try await database.messages.fetch(RecordQuery().filter("media", .notEqual, .text("[]")))
        return carrying.lazy.flatMap(\.media).first { $0.id == id }
    }
}
