import CSQLiteWALBuffer
import GRDB

/// Opens SQLite files through the `chirp-wal-buffer` VFS (`CSQLiteWALBuffer`), in which the
/// write-ahead log's frames go to the file in one write per transaction instead of two writes
/// per page. Everything else, fsyncs included, is SQLite's default VFS: a commit is written
/// and synced before it returns, as before, only with fewer system calls.
enum WALWriteGathering {
    /// The filename that opens the database at `path` through the VFS (registered on first
    /// use): a URI, which Debian's SQLite accepts. An SQLite built without URI filenames would
    /// take that URI for a file name, so there it is `path` itself and nothing is gathered.
    static func databasePath(_ path: String) throws -> String {
        guard chirp_wal_buffer_uri_filenames() == 1 else { return path }
        let code = chirp_wal_buffer_register()
        guard code == 0 else { throw WALWriteGatheringError(code: code) }
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:\(escaped)?vfs=\(CHIRP_WAL_BUFFER_VFS)"
    }

    /// The writes SQLite asked for on this connection's write-ahead log and the writes the VFS
    /// made to it, since the log was opened; nil if the log is not open through the VFS.
    static func writeCounts(_ db: Database) -> (requested: Int, performed: Int)? {
        var requested: Int64 = 0
        var performed: Int64 = 0
        guard chirp_wal_buffer_counts(db.sqliteConnection, &requested, &performed) == 1 else { return nil }
        return (Int(requested), Int(performed))
    }
}

/// The VFS could not be registered with SQLite.
struct WALWriteGatheringError: Error, CustomStringConvertible {
    let code: Int32
    var description: String { "SQLite refused to register the chirp-wal-buffer VFS (code \(code))" }
}
