import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shares one log directory between processes of the same app running at once (the app in
/// one terminal, commands in another), each with a `RemoteLogReporter` of its own, so none
/// rewrites another's pending entries.
///
/// The first process holds `lock` in the directory (an `flock`, released by the kernel however
/// the process ends, SIGKILL included) and keeps its entries in the directory itself; any other
/// process takes `process-<pid>/`, locked the same way. The holder of the main lock later
/// uploads what the others left (`abandoned()`: directories whose lock is free, so whose
/// process is gone) and removes them.
public final class LogDirectoryLease: Sendable {
    /// The shared directory.
    public let root: URL
    /// Where this process keeps its pending entries.
    public let directory: URL
    /// Whether this process holds the main lock (and looks after what others left).
    public let isPrimary: Bool
    private let lockDescriptor: Int32

    /// Takes the main directory if no other process has it, else a directory of this process.
    public init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if let fd = Self.lock(root) {
            directory = root
            isPrimary = true
            lockDescriptor = fd
            return
        }
        let own = root.appendingPathComponent("process-\(getpid())")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        guard let fd = Self.lock(own) else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: own.path]) }
        directory = own
        isPrimary = false
        lockDescriptor = fd
    }

    deinit {
        close(lockDescriptor)
    }

    /// Directories of other processes that have ended, each locked for the caller until the
    /// returned release is called (after uploading, with `remove: true` once it is empty).
    /// Only the primary process looks; others get none.
    public func abandoned() -> [(directory: URL, release: @Sendable (_ remove: Bool) -> Void)] {
        guard isPrimary else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().filter { $0.hasPrefix("process-") }.compactMap { name in
            let url = root.appendingPathComponent(name)
            guard let fd = Self.lock(url) else { return nil }  // its process still runs
            return (
                url,
                { remove in
                    if remove { try? FileManager.default.removeItem(at: url) }
                    close(fd)
                }
            )
        }
    }

    /// For an orderly exit of a secondary process: removes its directory when nothing waits
    /// in it (`isEmpty`).
    public func finish(isEmpty: Bool) {
        guard !isPrimary, isEmpty else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    /// An exclusive, non-blocking lock on `directory/lock`; nil when another process holds it.
    private static func lock(_ directory: URL) -> Int32? {
        let fd = open(directory.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
