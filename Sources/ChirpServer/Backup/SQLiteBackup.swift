import ChirpModels
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp admin backup`: a consistent copy of a SQLite server's database and media, taken
/// while the server runs.
///
/// The database is copied by SQLite's online backup (GRDB's `backup(to:)`) inside one read
/// transaction of a `DatabasePool`: in WAL mode that is one snapshot, and the server's writes go
/// on meanwhile. Then every blob the copy's media rows name is copied into the backup's
/// `media/` unless it is already there: blobs are content-addressed and never change, so a
/// nightly backup into the same directory copies only the new ones. A media row is committed
/// after its blob is in place, so the snapshot names only blobs that exist; the one blob that
/// may go away meanwhile is one the media sweep removed (unreferenced media), and its row is
/// dropped from the copy as the sweep dropped it from the server. The copy becomes
/// `chirp.sqlite` only once all its blobs are in the backup, so the directory always holds
/// one whole backup.
struct SQLiteBackup {
    let configuration: ServerConfiguration
    let layout: BackupLayout

    func run() throws -> BackupReport {
        let clock = ContinuousClock()
        let started = clock.now
        let source = configuration.databaseURL
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw AdministrationError("no Chirp database at \(source.path); pass the --data-dir the server uses")
        }
        let destination = layout.root.standardizedFileURL.resolvingSymlinksInPath().path
        let forbidden = [configuration.dataDirectory, configuration.mediaURL].map {
            $0.standardizedFileURL.resolvingSymlinksInPath().path
        }
        guard !forbidden.contains(destination) else {
            throw AdministrationError("\(layout.root.path) is the server's own data; back up into another directory")
        }
        guard layout.isUsable() else {
            throw AdministrationError(
                "\(layout.root.path) holds files that are not a Chirp backup; choose an empty directory or one an earlier backup wrote"
            )
        }
        let lock = try DataDirectoryLock.administering(configuration.dataDirectory, mode: .shared)
        defer { withExtendedLifetime(lock) {} }
        try FileManager.default.createDirectory(at: layout.root, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: layout.partialDatabaseURL)

        var poolConfiguration = Configuration()
        poolConfiguration.busyMode = .timeout(10)
        let server = try DatabasePool(path: source.path, configuration: poolConfiguration)
        let copy = try DatabaseQueue(path: layout.partialDatabaseURL.path)
        try server.backup(to: copy)
        // The copy took the server's header, WAL mode included: a backup is one plain file.
        try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try copy.close()

        var inspection = BackupInspection.database(at: layout.partialDatabaseURL)
        guard inspection.problems.isEmpty else {
            throw AdministrationError(
                "the copy of \(source.path) failed its check (\(inspection.problems.joined(separator: "; "))); "
                    + "the server's database may be damaged: stop the server and run `sqlite3 \(source.path) 'PRAGMA integrity_check'`"
            )
        }
        let live = MediaFiles(root: configuration.mediaURL)
        var copied = 0
        var copiedBytes: Int64 = 0
        var swept: [String] = []
        for blob in inspection.blobs where BlobCopy.size(layout.media.blobPath(blob.sha256)) != blob.size {
            if try BlobCopy.copy(live.blobPath(blob.sha256), to: layout.media.blobPath(blob.sha256)) {
                copied += 1
                copiedBytes += blob.size
            } else {
                swept.append(blob.sha256)
            }
        }
        try dropSwept(swept, server: server)
        inspection.blobs.removeAll { swept.contains($0.sha256) }
        inspection.checkBlobs(in: layout.media)
        guard inspection.problems.isEmpty else {
            throw AdministrationError(
                "the backup's media is incomplete (\(inspection.problems.joined(separator: "; "))); take the backup again"
            )
        }
        try server.close()

        guard rename(layout.partialDatabaseURL.path, layout.databaseURL.path) == 0 else {
            throw MediaFileError.system("rename \(layout.partialDatabaseURL.path)", errno)
        }
        try MediaFiles.syncDirectory(layout.root.path)
        return BackupReport(
            destination: layout.root.path, seconds: Double((clock.now - started).milliseconds) / 1000,
            databaseBytes: BlobCopy.size(layout.databaseURL.path) ?? 0, users: inspection.users,
            messages: inspection.messages,
            blobs: inspection.blobs.count, blobsCopied: copied, bytesCopied: copiedBytes, sweptMedia: swept.count)
    }

    /// Drops from the copy the media rows of blobs the sweep removed after the snapshot: the
    /// server's database no longer names them, and no message of the copy does. Any other
    /// missing blob is an error (the server's media directory lacks what its database names).
    private func dropSwept(_ shas: [String], server: DatabasePool) throws {
        guard !shas.isEmpty else { return }
        let copy = try DatabaseQueue(path: layout.partialDatabaseURL.path)
        defer { try? copy.close() }
        for sha in shas {
            let stillNamed = try server.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM media WHERE sha256 = ?", arguments: [sha]) ?? 0
            }
            let left = try copy.write { db -> Int in
                try db.execute(
                    sql: "DELETE FROM media WHERE sha256 = ? AND id NOT IN (SELECT media_id FROM message_media)",
                    arguments: [sha])
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM media WHERE sha256 = ?", arguments: [sha]) ?? 0
            }
            guard stillNamed == 0, left == 0 else {
                throw AdministrationError(
                    "the media blob \(sha) that the server's database names is missing from \(configuration.mediaURL.path); "
                        + "pass the --media-dir the server uses")
            }
        }
    }
}
