import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a POSIX ustar archive (the `tar` format every system reads) to a file, written by
/// hand: no listed package writes tar, and the one zip package would add a zlib build
/// dependency for bytes (media) that do not compress anyway. Entries are regular files under
/// names of at most 100 bytes; a file's bytes are copied from disk in chunks, never held in
/// memory whole. Blocking: call it off the event loops (`DataExportArchiver` runs it on NIO's
/// thread pool). One writer is used by one job at a time.
final class UstarWriter: @unchecked Sendable {
    private let fd: Int32
    private let mtime: Int64

    /// Creates (or truncates) the archive at `path`; entries get `modified` as their time.
    init(path: String, modified: Date) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MediaFileError.system("open \(path)", errno) }
        mtime = Int64(modified.timeIntervalSince1970)
    }

    deinit { close(fd) }

    /// Adds a file holding `data`.
    func add(_ name: String, data: Data) throws {
        try writeHeader(name, size: Int64(data.count))
        try data.withUnsafeBytes { try writeAll($0) }
        try pad(Int64(data.count))
    }

    /// Adds a file with the bytes of the file at `source`, read in chunks; false (nothing
    /// added) when `source` does not exist.
    func add(_ name: String, contentsOf source: String) throws -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw MediaFileError.system("open \(source)", errno)
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw MediaFileError.system("stat \(source)", errno) }
        let size = Int64(info.st_size)
        try writeHeader(name, size: size)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var remaining = size
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, min($0.count, Int(remaining))) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw MediaFileError.system("read \(source)", count < 0 ? errno : EIO) }
            try buffer.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            remaining -= Int64(count)
        }
        try pad(size)
        return true
    }

    /// Ends the archive (two zero blocks) and makes it durable.
    func finish() throws {
        try zeros(1024)
        guard fsync(fd) == 0 else { throw MediaFileError.system("fsync", errno) }
    }

    /// The 512-byte header of a regular file (mode 0644, owner 0, ustar magic, checksum).
    static func header(_ name: String, size: Int64, mtime: Int64) throws -> [UInt8] {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= 100 else { throw ArchiveNameError(name: name) }
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) {
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        }
        func octal(_ value: Int64, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(size, width: 12), at: 124)
        put(octal(mtime, width: 12), at: 136)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)  // the checksum counts as spaces
        header[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        let checksum = header.reduce(0) { $0 + Int64($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return header
    }

    private func writeHeader(_ name: String, size: Int64) throws {
        try Self.header(name, size: size, mtime: mtime).withUnsafeBytes { try writeAll($0) }
    }

    /// Zeros up to the next 512-byte boundary after `size` bytes of content.
    private func pad(_ size: Int64) throws {
        let rest = Int((512 - size % 512) % 512)
        if rest > 0 { try zeros(rest) }
    }

    private func zeros(_ count: Int) throws {
        try Self.zeroBlock.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let step = write(fd, bytes.baseAddress! + written, bytes.count - written)
            if step < 0, errno == EINTR { continue }
            guard step > 0 else { throw MediaFileError.system("write", step < 0 ? errno : EIO) }
            written += step
        }
    }

    private static let zeroBlock = [UInt8](repeating: 0, count: 1024)
}

/// An archive entry name the ustar format cannot hold (empty or over 100 bytes).
struct ArchiveNameError: Error, CustomStringConvertible {
    var name: String
    var description: String { "the archive name \(name.prefix(120)) does not fit in a ustar header" }
}
