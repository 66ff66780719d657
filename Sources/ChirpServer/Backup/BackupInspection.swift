import ChirpModels
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// What a copied database holds and whether it can be trusted: SQLite's `integrity_check`,
/// every media row naming its blob by a SHA-256 (64 lowercase hex digits, so the path built
/// from it stays in the media directory), and every blob present, at its size, as a file of
/// that media directory (not a symbolic link out of it).
struct BackupInspection {
    /// A blob a media row names.
    struct Blob: Hashable {
        var sha256: String
        var size: Int64
    }

    var users = 0
    var messages = 0
    /// The distinct blobs the media rows name.
    var blobs: [Blob] = []
    /// What is wrong, for people; empty when the copy is sound.
    var problems: [String] = []

    /// Reads the database at `url` (read-only): its integrity, its counts and its blobs.
    /// A file that is not a Chirp database is one problem, not an error.
    static func database(at url: URL) -> BackupInspection {
        var inspection = BackupInspection()
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
                if integrity != ["ok"] {
                    inspection.problems.append("integrity_check: " + integrity.prefix(5).joined(separator: "; "))
                    return
                }
                guard try db.tableExists("media"), try db.tableExists("messages"), try db.tableExists("users") else {
                    inspection.problems.append("\(url.path) is an SQLite database but not Chirp's")
                    return
                }
                inspection.users = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0
                inspection.messages = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages") ?? 0
                inspection.readBlobs(try Row.fetchAll(db, sql: "SELECT sha256, MAX(size) FROM media GROUP BY sha256"))
            }
        } catch let error as DatabaseError {
            inspection.problems.append("\(url.path): \(error.message ?? "\(error.resultCode)")")
        } catch {
            inspection.problems.append("\(url.path): \(error)")
        }
        return inspection
    }

    /// The blobs of the media rows (`sha256`, `size`), unless one of them names its blob by
    /// something other than a SHA-256 or gives no size: then a problem, and no blob at all, so
    /// no path is ever built from such a name.
    private mutating func readBlobs(_ rows: [Row]) {
        var named: [Blob] = []
        var unfit: [String] = []
        for row in rows {
            let (name, size): (DatabaseValue, DatabaseValue) = (row[0], row[1])
            if let sha256 = String.fromDatabaseValue(name), MediaFiles.isBlobName(sha256),
                let size = Int64.fromDatabaseValue(size), size >= 0
            {
                named.append(Blob(sha256: sha256, size: size))
            } else {
                unfit.append(String.fromDatabaseValue(name).map(TerminalText.quoted) ?? name.description)
            }
        }
        guard unfit.isEmpty else {
            problems.append(
                "\(unfit.count) media rows name their blob by something other than a SHA-256 (64 lowercase hex digits) "
                    + "or give it no size (first: \(unfit[0]))")
            return
        }
        blobs = named
    }

    /// Adds a problem for each blob missing from `media`, of another size, or reached through a
    /// symbolic link (its real path is not its address under the media directory's).
    mutating func checkBlobs(in media: MediaFiles) {
        let resolved = Self.realPath(media.root.path).map { MediaFiles(root: URL(fileURLWithPath: $0)) }
        let missing = blobs.filter { blob in
            let path = media.blobPath(blob.sha256)
            guard BlobCopy.size(path) == blob.size, let resolved else { return true }
            return Self.realPath(path) != resolved.blobPath(blob.sha256)
        }.map(\.sha256)
        if !missing.isEmpty {
            problems.append(
                "\(missing.count) of \(blobs.count) media blobs are missing, cut short or links out of \(media.root.path) "
                    + "(first: \(missing[0]))")
        }
    }

    /// `path` with every symbolic link and `..` resolved; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
