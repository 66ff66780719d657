import ChirpModels
import ChirpPersistence
import Foundation

/// An attachment as a message shows it, pending or sent: name, type, size, and the server's
/// media id once uploaded.
public struct LocalAttachment: Sendable, Hashable, Codable {
    public var name: String
    public var contentType: String
    public var size: Int64
    /// The server's media id; nil until the upload finished.
    public var mediaId: String?

    public init(name: String, contentType: String, size: Int64, mediaId: String? = nil) {
        self.name = name
        self.contentType = contentType
        self.size = size
        self.mediaId = mediaId
    }

    /// A media the server has.
    public init(_ media: Media) {
        self.init(
            name: media.filename ?? "media-\(media.id)", contentType: media.contentType, size: media.size,
            mediaId: media.id)
    }
}

/// One attachment of a pending message still to upload (table `pending_attachments`), kept
/// until the message is sent so the outbox resumes it after a restart.
struct PendingAttachment: StoredRecord {
    static let tableName = "pending_attachments"

    /// `localMessageId#index`.
    var id: String
    /// The message's local id (`LocalMessage.id`).
    var messageId: String
    var position: Int
    /// The file to send.
    var path: String
    var filename: String
    var contentType: String
    var size: Int64
    var clientMediaId: String
    /// Set once the upload finished.
    var mediaId: String?
    /// In an encrypted conversation: the encrypted copy that is uploaded in place of `path`.
    var sealedPath: String?
    /// Its key, nonce, SHA-256 and size (`id` empty until the upload gives one).
    var sealedKey: EncryptedMediaKey?

    static func key(messageId: String, position: Int) -> String { "\(messageId)#\(position)" }

    /// The attachments of a message, in order.
    static func of(_ messageId: String) -> RecordQuery {
        RecordQuery().filter("messageId", .equal, .text(messageId)).order(by: "position")
    }

    var display: LocalAttachment {
        LocalAttachment(name: filename, contentType: contentType, size: size, mediaId: mediaId)
    }

    /// Describes a file to attach: its name, size, and type (from its first bytes for the four
    /// image types the server checks, else from the extension).
    static func describe(_ url: URL, messageId: String, position: Int) throws(OutboxError) -> PendingAttachment {
        let path = url.path
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
                throw OutboxError.invalidAttachment("Cannot attach \(path): it is a folder, not a file.")
            }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let handle = try FileHandle(forReadingFrom: url)
            let head = [UInt8](try handle.read(upToCount: MediaContentType.headLength) ?? Data())
            try? handle.close()
            return PendingAttachment(
                id: key(messageId: messageId, position: position), messageId: messageId, position: position, path: path,
                filename: url.lastPathComponent,
                contentType: MediaContentType.of(head: head, extension: url.pathExtension), size: size,
                clientMediaId: UUID().uuidString, mediaId: nil)
        } catch let error as OutboxError {
            throw error
        } catch {
            let reason =
                if !FileManager.default.fileExists(atPath: path) {
                    "there is no such file"
                } else if !FileManager.default.isReadableFile(atPath: path) {
                    "you may not read it"
                } else {
                    error.localizedDescription
                }
            throw .invalidAttachment("Cannot attach \(path): \(reason).")
        }
    }
}
