@testable import ChirpServer
import Foundation
import GRDB
import Testing

/// An event stream's upgrade that cannot be granted: 400 for a token that is not valid, 503 with
/// `Retry-After` when the database cannot check it (a bench at 100,000 streams saw handshakes
/// refused 400 while the database was busy, which tells a client its session is bad).
@Suite("Event stream upgrades that are refused")
struct StreamUpgradeRefusalTests {
    @Test func aBadTokenIs400AndATokenTheDatabaseCannotCheckIs503() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("chirp.sqlite")
        let storage = try SQLiteStorage(url: file)
        let unknownToken = String(repeating: "a", count: 43)
        try await TestServer.run(storage: storage) { api in
            _ = try await api.register("alice")
            let bad = try await SilentWebSocket.connect(port: api.port, path: "/v1/events/stream?token=\(unknownToken)", timeout: .seconds(30))
            #expect(bad.head.hasPrefix("HTTP/1.1 400"), "\(bad.head)")

            try await Self.damageSessions(of: storage, file: file)
            let unchecked = try await SilentWebSocket.connect(port: api.port, path: "/v1/events/stream?token=\(unknownToken)", timeout: .seconds(30))
            #expect(unchecked.head.hasPrefix("HTTP/1.1 503"), "\(unchecked.head)")
            #expect(unchecked.head.lowercased().contains("retry-after: 1"), "\(unchecked.head)")
            #expect(!unchecked.upgraded)
        }
    }

    /// Overwrites every page of the sessions table and its indexes on disk (as a failing disk
    /// might), after copying the log into the file, and drops the readers' page caches.
    static func damageSessions(of storage: SQLiteStorage, file: URL) async throws {
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
                try Int.fetchAll(db, sql: "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'sessions' AND rootpage > 0"),
                try Int.fetchOne(db, sql: "PRAGMA page_size")!)
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
