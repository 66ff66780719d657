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
