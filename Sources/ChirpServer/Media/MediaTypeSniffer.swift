import ChirpModels

/// Checks a declared media type against the first bytes for the four image types the API
/// serves inline (API.md: 422 `media_type_mismatch` when they disagree). Other types are taken
/// as declared: they are served as attachments with `nosniff`.
enum MediaTypeSniffer {
    /// Whether `head` may carry `contentType`: anything for types other than the four; for
    /// them, bytes that are that image.
    static func agrees(_ contentType: String, head: [UInt8]) -> Bool {
        guard Media.inlineImageTypes.contains(contentType) else { return true }
        return MediaContentType.image(head: head) == contentType
    }
}
