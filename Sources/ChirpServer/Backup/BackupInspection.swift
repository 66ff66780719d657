import Foundation
import GRDB

/// What a copied database holds and whether it can be trusted: SQLite's `integrity_check`,
/// and every media row's blob present, at its size, in a media directory.
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
                inspection.blobs = try Row.fetchAll(db, sql: "SELECT sha256, MAX(size) FROM media GROUP BY sha256").map {
                    Blob(sha256: $0[0], size: $0[1])
                }
            }
        } catch let error as DatabaseError {
            inspection.problems.append("\(url.path): \(error.message ?? "\(error.resultCode)")")
        } catch {
            inspection.problems.append("\(url.path): \(error)")
        }
        return inspection
    }

    /// Adds a problem for each blob missing from `media` or of another size.
    mutating func checkBlobs(in media: MediaFiles) {
        var missing: [String] = []
        for blob in blobs where BlobCopy.size(media.blobPath(blob.sha256)) != blob.size {
            missing.append(blob.sha256)
        }
        if !missing.isEmpty {
            problems.append(
                "\(missing.count) of \(blobs.count) media blobs are missing or cut short under \(media.root.path) "
                    + "(first: \(missing[0]))")
        }
    }
}
