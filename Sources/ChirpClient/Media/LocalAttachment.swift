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
        self.init(name: media.filename ?? "media-\(media.id)", contentType: media.contentType, size: media.size, mediaId: media.id)
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

    static func key(messageId: String, position: Int) -> String { "\(messageId)#\(position)" }

    /// The attachments of a message, in order.
    static func of(_ messageId: String) -> RecordQuery {
        RecordQuery().filter("messageId", .equal, .text(messageId)).order(by: "position")
    }

    var display: LocalAttachment { LocalAttachment(name: filename, contentType: contentType, size: size, mediaId: mediaId) }

    /// Describes a file to attach: its name, size, and type (from its first bytes for the four
    /// image types the server checks, else from the extension).
    static func describe(_ url: URL, messageId: String, position: Int) throws -> PendingAttachment {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else { throw OutboxError.invalidAttachment("\(url.path) is not a file") }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let handle = try FileHandle(forReadingFrom: url)
        let head = [UInt8](try handle.read(upToCount: 12) ?? Data())
        try? handle.close()
        return PendingAttachment(
            id: key(messageId: messageId, position: position), messageId: messageId, position: position, path: url.path,
            filename: url.lastPathComponent, contentType: contentType(head: head, extension: url.pathExtension), size: size,
            clientMediaId: UUID().uuidString, mediaId: nil)
    }

    static func contentType(head: [UInt8], extension ext: String) -> String {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        switch ext.lowercased() {
        case "txt", "md", "log": return "text/plain"
        case "pdf": return "application/pdf"
        case "json": return "application/json"
        case "zip": return "application/zip"
        case "mp4": return "video/mp4"
        case "mp3": return "audio/mpeg"
        case "png", "jpg", "jpeg", "gif", "webp": return "application/octet-stream"
        default: return "application/octet-stream"
        }
    }
}
