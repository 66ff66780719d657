import ChirpModels
import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// How the server's SQLite file is laid out: the page size of new and existing databases,
/// commits synced to disk, and the write-ahead log being copied back by the background
/// checkpointer.
@Suite("SQLite file")
struct SQLiteFileTests {
    @Test func aNewDatabaseUsesSmallPagesAndAnExistingOneKeepsItsOwn() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fresh = try SQLiteStorage(url: directory.appendingPathComponent("new.sqlite"))
        #expect(
            try await fresh.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
                == SQLiteStorage.newDatabasePageSize)

        // A database made with 4 KiB pages (as earlier versions did) opens, migrates and takes writes.
        let oldURL = directory.appendingPathComponent("old.sqlite")
        let old = try DatabaseQueue(path: oldURL.path)
        try await old.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "CREATE TABLE earlier (id INTEGER PRIMARY KEY)")
        }
        try old.close()
        let reopened = try SQLiteStorage(url: oldURL)
        #expect(try await reopened.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        let now = Timestamp.now()
        _ = try await reopened.createAccount(
            NewAccount(username: "still", displayName: "s", passwordHash: "x", createdAt: now),
            session: NewSession(userId: 0, tokenHash: [2], createdAt: now, expiresAt: now))
        #expect(try await reopened.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") } == 1)
    }

    @Test func theWriterSyncsEveryCommitToDisk() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        // 2 is FULL: in WAL mode the log is fsynced at each commit, so an acknowledged write
        // survives power loss; NORMAL (1), GRDB's default for pools, would only survive a crash
        // of the process.
        let level = try await storage.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(level == 2)
        #expect(try await storage.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func theCheckpointerCopiesTheLogBackBesideTheWriter() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chirp.sqlite")
        let storage = try SQLiteStorage(url: url)
        let now = Timestamp.now()
        _ = try await storage.createAccount(
            NewAccount(username: "someone", displayName: "s", passwordHash: "x", createdAt: now),
            session: NewSession(userId: 0, tokenHash: [3], createdAt: now, expiresAt: now))
        let checkpointer = try WALCheckpointer(path: url.path, period: .seconds(3600))
        let (logFrames, copied) = try checkpointer.checkpoint()
        #expect(logFrames > 0, "the account was written to the log")
        #expect(copied == logFrames, "with no reader in the way, a passive checkpoint copies every frame")
    }
}
