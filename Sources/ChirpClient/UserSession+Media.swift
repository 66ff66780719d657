import ChirpEncryption
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
    /// the cached copy; with `destination`, copies it there too and returns that. An
    /// attachment of an encrypted message is decrypted with the key its envelope carried
    /// (`MediaDecryptionError` when its bytes are not the sender's).
    public func download(_ media: Media, to destination: URL? = nil) async throws -> URL {
        var cached = try await mediaCache.fetch(media, api: api, transfer: FileTransfer(), feed: transfers)
        let key = try await mediaKey(for: media.id)
        if let key { cached = try openedCopy(of: cached, media: media, key: key) }
        guard var target = destination else { return cached }
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
            // A folder: the file goes into it under its own name; the folder is never replaced.
            target = target.appendingPathComponent(Self.savedName(of: media, key: key))
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

    /// The name a media is saved under in a folder: its filename's last component (an
    /// encrypted one's from its envelope), else its id.
    static func savedName(of media: Media, key: EncryptedMediaKey? = nil) -> String {
        let name = (key?.name ?? media.filename ?? "").split(separator: "/").last.map(String.init) ?? ""
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
    /// The key of media `id` from the opened envelope of a stored message; nil for media in
    /// the clear.
    public func mediaKey(for id: String) async throws -> EncryptedMediaKey? {
        let carrying = try await database.messages.fetch(RecordQuery().filter("mediaKeys", .notEqual, .text("[]")))
        return carrying.lazy.flatMap(\.mediaKeys).first { $0.id == id }
    }

    /// The decrypted copy of the downloaded (encrypted) `file` of `media`, beside the cache
    /// (`media-cache/opened/`, mode 0600), made once.
    private func openedCopy(of file: URL, media: Media, key: EncryptedMediaKey) throws -> URL {
        let folder = mediaCache.directory.appendingPathComponent("opened")
        let opened = folder.appendingPathComponent(media.sha256)
        if FileManager.default.fileExists(atPath: opened.path) { return opened }
        let downloaded = try Data(contentsOf: file)
        let bytes: Data
        do {
            bytes = try AttachmentCipher.decrypt(downloaded, with: key)
        } catch {
            throw MediaDecryptionError(mediaId: media.id, reason: error)
        }
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let partial = folder.appendingPathComponent(".\(media.sha256).\(UUID().uuidString).part")
        guard
            FileManager.default.createFile(
                atPath: partial.path, contents: bytes, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path]) }
        try FileManager.default.moveItem(at: partial, to: opened)
        return opened
    }
}

/// An attachment of an encrypted message whose downloaded bytes did not decrypt with the key
/// its envelope carried: it "could not be verified", and nothing of it is saved.
public struct MediaDecryptionError: Error, Sendable, CustomStringConvertible {
    public var mediaId: String
    public var reason: AttachmentError

    public var description: String {
        "attachment \(mediaId) could not be verified (\(reason)): its bytes are not the ones its sender encrypted"
    }
}

extension UserSession {
    /// A media this device has seen on a stored message, by its server id.
    public func knownMedia(id: String) async throws -> Media? {
        let carrying = try await database.messages.fetch(RecordQuery().filter("media", .notEqual, .text("[]")))
        return carrying.lazy.flatMap(\.media).first { $0.id == id }
    }
}
