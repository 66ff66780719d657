import ChirpModels

/// Checks a declared media type against the first bytes for the four image types the API
/// serves inline (API.md: 422 `media_type_mismatch` when they disagree). Other types are taken
/// as declared: they are served as attachments with `nosniff`.
enum MediaTypeSniffer {
    /// Bytes needed to recognise any of the four.
    static let headLength = 12

    /// The image type these first bytes are, if one of the four.
    static func imageType(of head: [UInt8]) -> String? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// Whether `head` may carry `contentType`: anything for types other than the four; for
    /// them, bytes that are that image.
    static func agrees(_ contentType: String, head: [UInt8]) -> Bool {
        guard Media.inlineImageTypes.contains(contentType) else { return true }
        return imageType(of: head) == contentType
    }
}
