import ChirpModels
import Testing

/// One decision of a file's media type for the server's check and every client's upload.
@Suite("Media content types")
struct MediaContentTypeTests {
    @Test func imagesAreKnownByTheSameBytesTheServerChecks() {
        #expect(
            MediaContentType.image(head: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]) == "image/png")
        #expect(MediaContentType.image(head: Array("GIF89a".utf8)) == "image/gif")
        // "GIF8" alone is not a GIF the server would take: the client must not call it one.
        #expect(MediaContentType.image(head: Array("GIF8xx".utf8)) == nil)
        #expect(MediaContentType.image(head: Array("RIFF\0\0\0\0WEBP".utf8)) == "image/webp")
    }

    @Test func anUploadIsNeverDeclaredAnImageItsBytesAreNot() {
        #expect(MediaContentType.of(head: Array("not a png".utf8), extension: "PNG") == "application/octet-stream")
        #expect(MediaContentType.of(head: [0xFF, 0xD8, 0xFF, 0xE0], extension: "bin") == "image/jpeg")
        #expect(MediaContentType.of(head: Array("hello".utf8), extension: "md") == "text/plain")
        #expect(MediaContentType.named(extension: "jpeg") == "image/jpeg")
    }
}
