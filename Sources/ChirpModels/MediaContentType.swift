/// Media types of files, decided one way for the server and every client: the four image
/// types the API serves inline, recognised by their first bytes exactly as the server checks
/// them (API.md: 422 `media_type_mismatch`), and a few common types by file extension.
public enum MediaContentType {
    /// Bytes needed to recognise any of the four image types.
    public static let headLength = 12

    /// The image type these first bytes are, if one of the four.
    public static func image(head: [UInt8]) -> String? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// The type a file name's extension suggests, else `application/octet-stream`.
    public static func named(extension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "txt", "md", "log": "text/plain"
        case "pdf": "application/pdf"
        case "json": "application/json"
        case "zip": "application/zip"
        case "mp4": "video/mp4"
        case "mp3": "audio/mpeg"
        default: "application/octet-stream"
        }
    }

    /// The type to upload a file as: the image its bytes are, else its extension's type, but
    /// never an image type the bytes are not (the server would refuse it).
    public static func of(head: [UInt8], extension pathExtension: String) -> String {
        if let image = image(head: head) { return image }
        let named = named(extension: pathExtension)
        return Media.inlineImageTypes.contains(named) ? "application/octet-stream" : named
    }
}
