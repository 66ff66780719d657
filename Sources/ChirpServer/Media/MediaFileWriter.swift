import Crypto
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A file being written by one request, off the request's path: the bytes are gathered into
/// chunks of `chunkBytes`, and each chunk is hashed (when asked), written and handed to the
/// kernel's writeback on NIO's thread pool while the request goes on receiving the next one.
/// Only one chunk is in flight at a time, so the file and the hash see the bytes in order.
///
/// Starting the writeback of each chunk as it is written (`sync_file_range`) leaves the final
/// `fsync` only the last chunk and the file's metadata to wait for.
final class MediaFileWriter: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private var closed = false
    /// Bytes gathered for the next chunk.
    private var pending = ByteBuffer()
    /// The chunk being hashed and written, if any.
    private var inFlight: Task<Void, any Error>?
    /// The hash of the bytes written so far (touched only by the chunk in flight, one at a time).
    private var hasher: SHA256?
    static let chunkBytes = 1 << 20

    private init(path: String, fd: Int32, hashing: Bool) {
        self.path = path
        self.fd = fd
        self.hasher = hashing ? SHA256() : nil
    }

    /// Opens `path` for appending, creating it (exclusively) when `create`; with `hashing` the
    /// SHA-256 of every byte appended is kept (`sha256()`).
    static func open(path: String, create: Bool, hashing: Bool = false) async throws -> MediaFileWriter {
        try await NIOThreadPool.singleton.runIfActive {
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : O_CREAT)
            let fd = Glibc.open(path, flags, 0o600)
            guard fd >= 0 else { throw MediaFileError.system("open", errno) }
            return MediaFileWriter(path: path, fd: fd, hashing: hashing)
        }
    }

    /// Appends the buffer's readable bytes: a full chunk goes to the thread pool once the one
    /// before it is written, and this returns without waiting for it.
    func append(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        pending.writeBuffer(&buffer)
        if pending.readableBytes >= Self.chunkBytes { try await handOff() }
    }

    /// Writes every byte appended so far; returns when they are in the file.
    func flush() async throws {
        try await handOff()
        try await inFlight?.value
        inFlight = nil
    }

    /// Writes every byte appended so far and flushes the file to the disk.
    func sync() async throws {
        try await flush()
        let fd = self.fd
        try await NIOThreadPool.singleton.runIfActive {
            guard fsync(fd) == 0 else { throw MediaFileError.system("fsync", errno) }
        }
    }

    /// The SHA-256 (lowercase hex) of every byte appended, once `flush` or `sync` returned.
    func sha256() -> String? {
        hasher.map { MediaFiles.hex($0.finalize()) }
    }

    /// Sends the gathered bytes on as the next chunk, after the one in flight.
    private func handOff() async throws {
        guard pending.readableBytes > 0 else { return }
        let chunk = pending
        pending = ByteBuffer()
        try await inFlight?.value
        inFlight = Task { try await self.process(chunk) }
    }

    /// Hashes and writes one chunk and starts its writeback, on the thread pool.
    private func process(_ chunk: ByteBuffer) async throws {
        let fd = self.fd
        try await NIOThreadPool.singleton.runIfActive {
            try chunk.withUnsafeReadableBytes { bytes in
                self.hasher?.update(bufferPointer: bytes)
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { throw MediaFileError.system("write", errno) }
                    offset += written
                }
            }
            _ = Self.startWriteback?(fd, 0, 0, 2)
        }
    }

    /// `sync_file_range` (Linux), which the Glibc module does not export: looked up once.
    /// Called with `SYNC_FILE_RANGE_WRITE` (2) it starts writing the file's dirty pages to the
    /// disk and returns; a failure is only a lost head start, as `fsync` still follows.
    private static let startWriteback: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()

    /// Closes the file once the chunk in flight (if any) is done with it: never while a write
    /// to this descriptor could still be running, as the number may be reused at once.
    func close() async {
        _ = try? await inFlight?.value
        inFlight = nil
        closeNow()
    }

    private func closeNow() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    // A chunk in flight holds the writer, so this runs only after the last one is done.
    deinit { closeNow() }
}
