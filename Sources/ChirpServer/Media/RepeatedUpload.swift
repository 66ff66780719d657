import ChirpModels
import Crypto
import NIOCore

/// A whole upload under a clientMediaId that already names stored media: a retry whose answer
/// was lost (the same bytes: 200 with the stored media), or a reuse of the id for other bytes
/// (409 `client_id_reused`).
///
/// Its body is only compared, so it is never written anywhere and takes no quota: a
/// `Content-Length` other than the stored size is refused before the body is read, and a body
/// of the right length (or of no declared length, chunked) is hashed as it streams and refused
/// as soon as it runs past the stored size. Whatever a client sends under an id it used, the
/// server holds at most one of its buffers.
struct RepeatedUpload {
    let stored: Media

    /// The stored media when `body` is its bytes; else 409 `client_id_reused`.
    func compare<Body: AsyncSequence & Sendable>(_ body: Body, contentLength: Int64?) async throws -> Media
    where Body.Element == ByteBuffer {
        if let contentLength, contentLength != stored.size { throw MediaService.clientMediaIdReused }
        var hasher = SHA256()
        var size: Int64 = 0
        for try await buffer in body {
            size += Int64(buffer.readableBytes)
            guard size <= stored.size else { throw MediaService.clientMediaIdReused }
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        }
        guard size == stored.size, MediaFiles.hex(hasher.finalize()) == stored.sha256 else {
            throw MediaService.clientMediaIdReused
        }
        return stored
    }
}
