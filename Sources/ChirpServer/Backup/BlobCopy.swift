import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Copies one media blob to its address in another media directory so that a crash never
/// leaves a partial blob under the final name: the bytes go to `<address>.partial`, are
/// fsynced, renamed to the address, and the directory is fsynced.
enum BlobCopy {
    /// The size of the file at `path`, nil when there is none.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o170000 == 0o100000 else { return nil }  // a regular file
        return Int64(info.st_size)
    }

    /// Copies `source` to `destination`; false when `source` does not exist.
    static func copy(_ source: String, to destination: String) throws -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw MediaFileError.system("open \(source)", errno)
        }
        defer { close(input) }
        let directory = (destination as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let partial = destination + ".partial"
        let output = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw MediaFileError.system("open \(partial)", errno) }
        do {
            defer { close(output) }
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 { throw MediaFileError.system("read \(source)", errno) }
                if count == 0 { break }
                var written = 0
                while written < count {
                    let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                    if step < 0 { throw MediaFileError.system("write \(partial)", errno) }
                    written += step
                }
            }
            guard fsync(output) == 0 else { throw MediaFileError.system("fsync \(partial)", errno) }
        } catch {
            unlink(partial)
            throw error
        }
        guard rename(partial, destination) == 0 else { throw MediaFileError.system("rename \(partial)", errno) }
        try MediaFiles.syncDirectory(directory)
        return true
    }
}
