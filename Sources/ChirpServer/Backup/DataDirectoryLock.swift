import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An `flock` on `chirp.lock` in a data directory, released by the kernel however the process
/// ends. Everything that opens the directory's database (`chirp serve`, the admin commands, a
/// backup) holds it shared, so any number of them run together; `chirp admin restore` holds it
/// exclusive, so it never replaces the files of a running server and no server starts while a
/// restore runs.
public final class DataDirectoryLock: Sendable {
    /// Shared by the users of the data, exclusive for the one that replaces it.
    public enum Mode: Sendable { case shared, exclusive }

    /// The lock file's name inside the data directory.
    public static let fileName = "chirp.lock"

    private let descriptor: Int32

    /// Takes the lock without waiting. Throws `DataDirectoryLockError.held` when another
    /// process holds it in a mode that excludes `mode`; a directory where the lock file cannot
    /// be made (read-only) is used unlocked, as before locks existed.
    public init(directory: URL, mode: Mode) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(Self.fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            descriptor = -1
            return
        }
        guard flock(fd, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { throw DataDirectoryLockError.held(directory: directory.path, wanted: mode) }
            descriptor = -1
            return
        }
        descriptor = fd
    }

    /// The lock for an admin command: a held lock is an `AdministrationError` saying what to do.
    static func administering(_ directory: URL, mode: Mode) throws -> DataDirectoryLock {
        do {
            return try DataDirectoryLock(directory: directory, mode: mode)
        } catch let error as DataDirectoryLockError {
            throw AdministrationError(error.description)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}

/// The data directory is in use in a way that excludes what was asked.
public enum DataDirectoryLockError: Error, CustomStringConvertible {
    case held(directory: String, wanted: DataDirectoryLock.Mode)

    public var description: String {
        switch self {
        case .held(let directory, .shared):
            return "a restore (chirp admin restore) is running on \(directory); wait for it to finish, then try again"
        case .held(let directory, .exclusive):
            return
                "a Chirp server or command is using \(directory); stop the server (SIGTERM, or systemctl stop chirp) "
                + "and run the restore again"
        }
    }
}
