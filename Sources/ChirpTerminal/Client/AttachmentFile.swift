import ChirpModels
import Foundation

/// A file chosen to go with the next message: where it is, and what the conversation shows of
/// it before it is sent (name, type, size).
public struct AttachmentFile: Sendable, Equatable {
    public var url: URL
    public var contentType: String
    public var size: Int64

    public init(url: URL, contentType: String, size: Int64) {
        self.url = url
        self.contentType = contentType
        self.size = size
    }

    public var name: String { url.lastPathComponent }

    /// The regular file at `path`, with its size and a type from its extension; throws when it
    /// is missing, a folder, or unreadable.
    public static func inspect(path: String) throws -> AttachmentFile {
        let url = URL(fileURLWithPath: path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw AttachmentError.missing
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw AttachmentError.notAFile }
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw AttachmentError.unreadable }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        return AttachmentFile(url: url, contentType: MediaContentType.named(extension: url.pathExtension), size: size)
    }

    /// "name · type · size", as a line of the conversation.
    public var summary: String { Self.summary(name: name, contentType: contentType, size: size) }

    /// "name · type · size" of any attachment (a chosen file, or media a message carries).
    public static func summary(name: String, contentType: String, size: Int64) -> String {
        "\(name) · \(contentType) · \(Self.size(size))"
    }

    /// A size for people: bytes, KB, MB (powers of 1,024, one decimal above KB).
    public static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return "\((bytes + 512) / 1024) KB" }
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}

/// Why a path cannot be attached.
public enum AttachmentError: Error, Equatable, CustomStringConvertible {
    case missing, notAFile, unreadable

    public var description: String {
        switch self {
        case .missing: "there is no such file (check the path; ~ is your home folder)"
        case .notAFile: "that is a folder, not a file"
        case .unreadable: "you may not read that file"
        }
    }
}
