import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// The `chirp-wal-buffer` VFS: a transaction's log frames reach the file in a few writes,
/// and what each commit wrote is there, whole, for connections that do not use the VFS.
@Suite("Gathered log writes")
struct WALWriteGatheringTests {
    /// A writer through the VFS, with 1 KiB pages like the server's, and a table of blobs.
    private static func writer(at url: URL, synchronous: String) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 1024") }
        let queue = try DatabaseQueue(path: WALWriteGathering.databasePath(url.path), configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        }
        return queue
    }

    private static func body(_ id: Int) -> Data { Data(repeating: UInt8(truncatingIfNeeded: id), count: 700) }

    /// Inserts blob `id` with its `body`.
    private static func insert(_ db: Database, id: Int) throws {
        try db.execute(sql: "INSERT INTO blobs (id, body) VALUES (?, ?)", arguments: [id, body(id)])
    }

    @Test func aLargeTransactionIsWrittenInFewWritesAndReadsBackWhole() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("large.sqlite")
        let writer = try Self.writer(at: url, synchronous: "FULL")
        // About 9,000 pages (9 MiB of log) in one commit: more than the 4 MiB the VFS gathers
        // and far more than the 64 KiB it hands the default VFS at once.
        let before = try writer.read { db in try #require(WALWriteGathering.writeCounts(db)) }
        try writer.write { db in
            for id in 1...12_000 { try Self.insert(db, id: id) }
        }
        let after = try writer.read { db in try #require(WALWriteGathering.writeCounts(db)) }
        let requested = after.requested - before.requested
        let performed = after.performed - before.performed
        #expect(requested > 16_000, "SQLite asks for two writes per page: \(requested)")
        #expect(performed < requested / 8, "gathered into 64 KiB writes: \(performed) for \(requested)")

        // Another connection, through the default VFS, reads every row as written.
        let reader = try DatabaseQueue(path: url.path)
        let (rows, samples, integrity) = try reader.read { db throws -> (Int?, [Data?], String?) in
            let samples = try [1, 4_097, 6_000, 11_999, 12_000].map { id in
                try Data.fetchOne(db, sql: "SELECT body FROM blobs WHERE id = ?", arguments: [id])
            }
            return (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blobs"), samples,
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(rows == 12_000)
        #expect(samples == [1, 4_097, 6_000, 11_999, 12_000].map(Self.body))
        #expect(integrity == "ok")
    }

    @Test func eachCommitIsOnFileBeforeOthersSeeItEvenWithoutSync() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("normal.sqlite")
        // With synchronous=NORMAL no fsync follows a commit: only the commit frame tells the
        // VFS to write what it gathered before SQLite publishes the commit to readers.
        let writer = try Self.writer(at: url, synchronous: "NORMAL")
        let reader = try DatabaseQueue(path: url.path)
        for id in 1...50 {
            try writer.write { db in try Self.insert(db, id: id) }
            let seen = try reader.read { db in
                try Data.fetchOne(db, sql: "SELECT body FROM blobs WHERE id = ?", arguments: [id])
            }
            #expect(seen == Self.body(id), "commit \(id) was readable by another connection right after it returned")
        }
        let counts = try writer.read { db in try #require(WALWriteGathering.writeCounts(db)) }
        #expect(counts.performed < counts.requested, "\(counts.performed) writes for \(counts.requested) asked for")
    }

    @Test func aDataDirectoryWhoseNameHoldsURICharactersOpensWhereItSays() async throws {
        let directory = TestServer.temporaryDirectory().appendingPathComponent("50% off? #1 data")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let url = directory.appendingPathComponent("chirp.sqlite")
        let storage = try SQLiteStorage(url: url)
        let counts = try await storage.pool.writeWithoutTransaction { db in WALWriteGathering.writeCounts(db) }
        #expect(counts != nil, "the writer's log is open through the VFS")
        #expect(FileManager.default.fileExists(atPath: url.path), "the file is at the path given, not at a mangled one")
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func theLogRestartsAfterACheckpointAndKeepsEveryCommit() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("restart.sqlite")
        let writer = try Self.writer(at: url, synchronous: "FULL")
        let checkpointer = try DatabaseQueue(path: url.path)
        var id = 0
        for round in 1...4 {
            for _ in 0..<200 {
                id += 1
                try writer.write { db in try Self.insert(db, id: id) }
            }
            // Copy the log into the database and reset it: the next commit writes a new log
            // header at offset 0, over the old frames.
            let result = try checkpointer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            #expect(result.walFrameCount == 0, "round \(round): the log was emptied")
        }
        // And the writer reads back what it wrote through its own gathered log.
        let (rows, last, integrity) = try writer.read { db throws -> (Int?, Data?, String?) in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blobs"),
                try Data.fetchOne(db, sql: "SELECT body FROM blobs WHERE id = 800"),
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(rows == 800)
        #expect(last == Self.body(800))
        #expect(integrity == "ok")
    }
}
