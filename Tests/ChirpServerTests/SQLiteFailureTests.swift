@testable import ChirpServer
import ChirpModels
import Foundation
import GRDB
import Testing

/// When the SQLite database cannot take writes, requests get a 503 that clients retry, and
/// nothing stored before is lost.
@Suite("SQLite that cannot take writes")
struct SQLiteFailureTests {
    @Test func aFullDatabaseAnswersWithA503AndKeepsWhatItHad() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let (ann, _) = try await MessageEventStorageTests.pair(storage)
        let first = try await storage.sendMessage(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "before", text: "kept", createdAt: .now()))

        // The database may not grow: a send that needs new pages fails with SQLITE_FULL.
        try await storage.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let long = String(repeating: "a long message that needs pages of its own ", count: 60)
        let refused = await #expect(throws: APIError.self) {
            _ = try await storage.sendMessage(
                NewMessage(sender: ann, recipient: "bea", clientMessageId: "during", text: long, createdAt: .now()))
        }
        #expect(refused?.status == .serviceUnavailable)
        #expect(refused?.code == APIErrorCode.unavailable)
        #expect(refused?.retryAfter == 1)

        // Room again: the client's retry (same id) is stored once, and the first is still there.
        try await storage.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
        let retried = try await storage.sendMessage(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "during", text: long, createdAt: .now()))
        #expect(retried.created)
        let page = try await storage.messages(viewer: ann, peer: "bea", limit: 10, before: nil, after: nil)
        #expect(page.items.map(\.clientMessageId) == ["before", "during"])
        #expect(page.items.first?.id == first.value.id)
    }
}
