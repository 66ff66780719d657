import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp admin restore`: puts a backup (`BackupLayout`) back into the data directory of a
/// stopped server.
///
/// It holds the data directory's lock exclusively (a running server holds it shared, so the
/// restore refuses, and no server starts until it is done). It checks the backup before it
/// changes anything: `PRAGMA integrity_check` on its database, every media row naming its blob
/// by a SHA-256 (a backup is not trusted to name paths: `../../x` would lead out of the media
/// directory), and every blob present at its size as a file of the backup (not a link out of
/// it) (`BackupInspection`). Then it copies the blobs the media directory lacks, copies the
/// database next to the live one with SQLite's backup, moves the database that was there
/// (with its `-wal` and `-shm`) to `before-restore-<time>/`, and renames the copy in.
struct SQLiteRestore {
    let source: BackupLayout
    let configuration: ServerConfiguration

    func run() throws -> RestoreReport {
        guard FileManager.default.fileExists(atPath: source.databaseURL.path) else {
            throw AdministrationError(
                "no backup in \(source.root.path) (it has no chirp.sqlite); pass the directory `chirp admin backup` wrote"
            )
        }
        let lock = try DataDirectoryLock.administering(configuration.dataDirectory, mode: .exclusive)
        defer { withExtendedLifetime(lock) {} }
        var inspection = BackupInspection.database(at: source.databaseURL)
        if inspection.problems.isEmpty { inspection.checkBlobs(in: source.media) }
        guard inspection.problems.isEmpty else {
            throw AdministrationError(
                "the backup in \(source.root.path) failed its check, so nothing was changed: "
                    + inspection.problems.joined(separator: "; ") + "; restore another backup")
        }

        let media = MediaFiles(root: configuration.mediaURL)
        var copied = 0
        for blob in inspection.blobs where BlobCopy.size(media.blobPath(blob.sha256)) != blob.size {
            _ = try BlobCopy.copy(source.media.blobPath(blob.sha256), to: media.blobPath(blob.sha256))
            copied += 1
        }

        let live = configuration.databaseURL
        let incoming = live.appendingPathExtension("restoring")
        try? FileManager.default.removeItem(at: incoming)
        var readOnly = Configuration()
        readOnly.readonly = true
        let backup = try DatabaseQueue(path: source.databaseURL.path, configuration: readOnly)
        let copy = try DatabaseQueue(path: incoming.path)
        try backup.backup(to: copy)
        try copy.close()
        try backup.close()

        let keptAt = try moveAside(live)
        guard rename(incoming.path, live.path) == 0 else {
            throw MediaFileError.system("rename \(incoming.path)", errno)
        }
        try MediaFiles.syncDirectory(configuration.dataDirectory.path)
        return RestoreReport(
            source: source.root.path, dataDirectory: configuration.dataDirectory.path, users: inspection.users,
            messages: inspection.messages, blobs: inspection.blobs.count, blobsCopied: copied, keptAt: keptAt?.path)
    }

    /// Moves the database at `live` and its log files into a new `before-restore-<time>/`
    /// beside it; nil when there is no database.
    private func moveAside(_ live: URL) throws -> URL? {
        let files = ["", "-wal", "-shm"].map { URL(fileURLWithPath: live.path + $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        guard !files.isEmpty else { return nil }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let aside = live.deletingLastPathComponent().appendingPathComponent("before-restore-\(stamp)")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.moveItem(at: file, to: aside.appendingPathComponent(file.lastPathComponent))
        }
        return aside
    }
}
