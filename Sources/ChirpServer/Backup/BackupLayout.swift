import Foundation

/// Where a backup directory keeps what `chirp admin backup` wrote: `chirp.sqlite`, the
/// database as of the latest backup (written as `chirp.sqlite.partial` and renamed when the
/// backup is whole), and `media/`, the blobs at the media store's own addresses
/// (`media/ab/cd/<sha256>`), shared by every backup taken into the directory.
struct BackupLayout {
    let root: URL

    /// The database of the latest whole backup.
    var databaseURL: URL { root.appendingPathComponent("chirp.sqlite") }
    /// The database of a backup being taken.
    var partialDatabaseURL: URL { root.appendingPathComponent("chirp.sqlite.partial") }
    /// The blobs.
    var media: MediaFiles { MediaFiles(root: root.appendingPathComponent("media")) }

    /// Whether `root` can take a backup: missing, empty, or holding an earlier backup.
    func isUsable() -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        // (`chirp.sqlite.partial-journal` may stay behind a backup that was interrupted.)
        return names.allSatisfy { $0 == "media" || $0.hasPrefix("chirp.sqlite") }
    }
}
