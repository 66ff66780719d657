import ChirpModels
import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// When the SQLite database cannot take writes or serve reads, requests get a 503 that
/// clients retry, and nothing stored before is lost.
@Suite("SQLite that cannot serve")
struct SQLiteFailureTests {
    @Test func aFullDatabaseAnswersWithA503AndKeepsWhatItHad() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let (ann, _) = try await MessageEventStorageTests.pair(storage)
        let first = try await storage.send(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "before", text: "kept", createdAt: .now()))

        // The database may not grow: a send that needs new pages fails with SQLITE_FULL. (The
        // migrations leave free pages, which a send would fill first: vacuumed away.)
        try await storage.pool.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM")
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let long = String(repeating: "a long message that needs pages of its own ", count: 60)
        let refused = await #expect(throws: StorageError.self) {
            _ = try await storage.send(
                NewMessage(sender: ann, recipient: "bea", clientMessageId: "during", text: long, createdAt: .now()))
        }
        Self.expectServiceUnavailable(refused)

        // Room again: the client's retry (same id) is stored once, and the first is still there.
        try await storage.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823")
        }
        let retried = try await storage.send(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "during", text: long, createdAt: .now()))
        #expect(retried.created)
        let page = try await storage.latestMessages(ann, "bea")
        #expect(page.map(\.clientMessageId) == ["before", "during"])
        #expect(page.first?.id == first.value.id)
    }

    @Test func overHTTPAFullDatabaseIsA503WithRetryAfterAndTheRetryIsStoredOnce() async throws {
        let configuration = TestServer.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        try await TestServer.run(storage: storage, configuration) { api in
            let ann = try await api.register("ann")
            let bea = try await api.register("bea")
            try await api.follow(bea, "ann")
            try await storage.pool.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA max_page_count = \(try Int.fetchOne(db, sql: "PRAGMA page_count")!)")
            }
            let long = String(repeating: "a long message that needs pages of its own ", count: 60)
            let body = try String(decoding: JSONEncoder().encode(["text": long]), as: UTF8.self)
            let path = "/v1/conversations/bea/messages/during"
            let refused = try await api.send(.PUT, path, token: ann.token, raw: body)
            #expect(refused.status == 503 && refused.errorCode == APIErrorCode.unavailable)
            #expect(refused.headers.first(name: "Retry-After") == "1")

            try await storage.pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA max_page_count = 1073741823")
            }
            #expect(try await api.send(.PUT, path, token: ann.token, raw: body).status == 201)
            #expect(
                try await api.send(.PUT, path, token: ann.token, raw: body).status == 200,
                "the retry is answered, not stored again")
        }
    }

    @Test func aDamagedTableAnswersItsReadsWithA503AndTheRestStillServes() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("chirp.sqlite")
        let storage = try SQLiteStorage(url: file)
        let (ann, bea) = try await MessageEventStorageTests.pair(storage)
        _ = try await storage.send(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "one", text: "hello", createdAt: .now()))
        #expect(try await storage.latestMessages(bea, "ann").count == 1)

        // The messages table's pages overwritten on disk (as a failing disk might leave them).
        try await SQLiteDamage.overwrite(tables: ["messages"], of: storage, file: file)

        let refused = await #expect(throws: StorageError.self) {
            _ = try await storage.latestMessages(bea, "ann")
        }
        Self.expectServiceUnavailable(refused)
        // The users table is whole: its reads still answer.
        #expect(try await storage.user(usernameKey: "ann", viewer: bea.id)?.username == "ann")
    }

    /// Storage says the database is unavailable, and the API answers that with a 503 that
    /// clients retry after `Retry-After`.
    static func expectServiceUnavailable(_ error: StorageError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .unavailable(let cause)? = error else {
            Issue.record(
                "expected an unavailable database, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(!cause.isEmpty, "the cause is kept for the log", sourceLocation: sourceLocation)
        let answer = APIError(StorageError.unavailable(cause: cause))
        #expect(answer.status == .serviceUnavailable, sourceLocation: sourceLocation)
        #expect(answer.code == APIErrorCode.unavailable, sourceLocation: sourceLocation)
        #expect(answer.retryAfter == 1, sourceLocation: sourceLocation)
    }
}
