import Foundation
import GRDB

@testable import ChirpServer

/// Damages a SQLite database on disk the way a failing disk might: every page of some tables
/// (and their indexes) overwritten, after the log was copied into the file, with the readers'
/// page caches dropped. Reads of those tables then fail; the rest still serve.
enum SQLiteDamage {
    static func overwrite(tables: [String], of storage: SQLiteStorage, file: URL) async throws {
        // The storage's own checkpointer runs a passive checkpoint every half second, and a
        // second checkpoint at the same moment is refused at once (SQLITE_BUSY): try again.
        var attempts = 0
        while true {
            attempts += 1
            do {
                try await storage.pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempts < 100 {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let (roots, pageSize) = try await storage.pool.read { db in
            (
                try Int.fetchAll(
                    db,
                    sql:
                        "SELECT rootpage FROM sqlite_master WHERE tbl_name IN (SELECT value FROM json_each(?)) AND rootpage > 0",
                    arguments: [String(decoding: try JSONEncoder().encode(tables), as: UTF8.self)]),
                try Int.fetchOne(db, sql: "PRAGMA page_size")!
            )
        }
        let handle = try FileHandle(forWritingTo: file)
        for root in roots {
            try handle.seek(toOffset: UInt64((root - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        }
        try handle.close()
        storage.pool.releaseMemory()
    }
}
