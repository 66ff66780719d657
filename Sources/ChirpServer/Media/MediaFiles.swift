import Crypto
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The media directory: finished bytes content-addressed at `ab/cd/<sha256>`, uploads in
/// progress under `uploads/<owner>/`, and bodies being received under `tmp/`. Every blocking
/// call runs on NIO's thread pool, never on an event loop.
///
/// A finished file is written to `tmp/`, fsynced, renamed to its address and its directory
/// fsynced before anyone records it, so a crash at any point leaves at worst a file nobody
/// names (the sweep removes it), never a name without its bytes.
struct MediaFiles: Sendable {
    let root: URL

    init(root: URL) { self.root = root }

    /// Creates the directory tree (at startup).
    func prepare() throws {
        for sub in ["tmp", "uploads"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    /// Whether `name` is a blob's name: a SHA-256 in lowercase hex, 64 digits. Only such a
    /// name makes a `blobPath` inside `root`; one read from elsewhere (a backup) is checked.
    static func isBlobName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Where the bytes with this sha256 live.
    func blobPath(_ sha256: String) -> String {
        let chars = Array(sha256)
        let first = chars.count >= 2 ? String(chars[0..<2]) : "00"
        let second = chars.count >= 4 ? String(chars[2..<4]) : "00"
        return root.appendingPathComponent(first).appendingPathComponent(second).appendingPathComponent(sha256).path
    }

    /// A new, empty file in `tmp/` opened for writing, hashing what is written to it.
    func temporaryFile() async throws -> MediaFileWriter {
        let path = root.appendingPathComponent("tmp").appendingPathComponent(UUID().uuidString).path
        return try await MediaFileWriter.open(path: path, create: true, hashing: true)
    }

    /// The file of an upload in parts, and its description.
    func partPaths(owner: Int64, clientMediaId: String) -> (part: String, meta: String) {
        let dir = root.appendingPathComponent("uploads").appendingPathComponent(String(owner))
        return (
            dir.appendingPathComponent(clientMediaId + ".part").path,
            dir.appendingPathComponent(clientMediaId + ".json").path
        )
    }

    /// The unfinished uploads in parts of `owner`: each one's client id and declared total.
    func unfinishedUploads(owner: Int64) async throws -> [(clientMediaId: String, total: Int64)] {
        let dir = root.appendingPathComponent("uploads").appendingPathComponent(String(owner))
        return try await NIOThreadPool.singleton.runIfActive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.compactMap { name in
                let url = dir.appendingPathComponent(name)
                guard let data = try? Data(contentsOf: url),
                    let meta = try? JSONDecoder().decode(PartMeta.self, from: data)
                else { return nil }
                return (String(name.dropLast(5)), meta.total)
            }
        }
    }

    /// Makes `temporaryPath` (fsynced by its writer) the bytes of `sha256`: renamed to its
    /// address, the directory fsynced. The bytes may already be there (the same content
    /// uploaded before): the rename replaces them with identical ones.
    func commit(_ temporaryPath: String, sha256: String) async throws {
        let destination = blobPath(sha256)
        try await NIOThreadPool.singleton.runIfActive {
            let directory = (destination as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard rename(temporaryPath, destination) == 0 else { throw MediaFileError.system("rename", errno) }
            try Self.syncDirectory(directory)
        }
    }

    /// The size of a file, nil when it does not exist.
    func size(_ path: String) async throws -> Int64? {
        try await NIOThreadPool.singleton.runIfActive {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Int64(info.st_size)
        }
    }

    /// The SHA-256 (lowercase hex) of a file and its first `headCount` bytes, read in chunks.
    func digest(_ path: String, headCount: Int) async throws -> (sha256: String, head: [UInt8]) {
        try await NIOThreadPool.singleton.runIfActive {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw MediaFileError.system("open", errno) }
            defer { close(fd) }
            var hasher = SHA256()
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw MediaFileError.system("read", errno) }
                if count == 0 { break }
                buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if head.count < headCount { head += buffer[0..<min(count, headCount - head.count)] }
            }
            return (Self.hex(hasher.finalize()), head)
        }
    }

    /// Removes a file if it exists.
    func remove(_ path: String) async {
        _ = try? await NIOThreadPool.singleton.runIfActive { unlink(path) }
    }

    /// Removes files under `tmp/` and `uploads/` last changed before `cutoff` (abandoned
    /// bodies and uploads); returns how many.
    func removeAbandoned(before cutoff: Date) async throws -> Int {
        try await NIOThreadPool.singleton.runIfActive {
            var removed = 0
            for sub in ["tmp", "uploads"] {
                let base = root.appendingPathComponent(sub)
                guard
                    let walker = FileManager.default.enumerator(
                        at: base, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey])
                else { continue }
                for case let url as URL in walker {
                    let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
                    guard values?.isRegularFile == true, let modified = values?.contentModificationDate,
                        modified < cutoff
                    else { continue }
                    if unlink(url.path) == 0 { removed += 1 }
                }
            }
            return removed
        }
    }

    static func syncDirectory(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw MediaFileError.system("open directory", errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw MediaFileError.system("fsync directory", errno) }
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// A failed file operation (the disk, not the request): the API answers 503.
enum MediaFileError: Error, CustomStringConvertible {
    case system(String, Int32)

    var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }
}
