import Foundation
import Testing

@testable import ChirpPersistence

@Suite("SQLite store")
struct SQLiteStoreTests {
    private func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)/db.sqlite").path
    }

    @Test func migrationsRunOnceAndDataSurvivesReopening() async throws {
        let path = path()
        do {
            let store = try SQLiteStore(path: path, migrations: Implementation.migrations)
            try await SQLiteRepository<Note>(store: store).save([note("kept")])
            #expect(try store.appliedMigrations() == ["notes"])
        }
        let more = Implementation.migrations + [.init(name: "index", sql: "CREATE INDEX notes_rank ON notes(rank)")]
        let reopened = try SQLiteStore(path: path, migrations: more)
        #expect(try reopened.appliedMigrations() == ["notes", "index"])
        #expect(try await SQLiteRepository<Note>(store: reopened).fetch(id: "kept") != nil)
        #expect(reopened.path == path)
    }

    @Test func schemaMismatchesAreClearErrors() async throws {
        struct Orphan: StoredRecord {
            static let tableName = "nowhere"
            var id: Int
        }
        struct Wider: StoredRecord {
            static let tableName = "notes"
            var id: String
            var extra: Int
        }
        let store = try SQLiteStore(path: path(), migrations: Implementation.migrations)
        #expect(throws: PersistenceError.self) { try SQLiteRepository<Orphan>(store: store) }
        let wider = try SQLiteRepository<Wider>(store: store)
        await #expect(throws: PersistenceError.self) { try await wider.save([Wider(id: "1", extra: 2)]) }
        await #expect(throws: PersistenceError.self) {
            try await SQLiteRepository<Note>(store: store).fetch(.all.filter("nope", .equal, 1))
        }
        #expect(throws: PersistenceError.self) {
            try SQLiteStore(path: path(), migrations: [.init(name: "bad", sql: "CREATE TABLE (")])
        }
        let constraint = try SQLiteStore(
            path: path(),
            migrations: [
                .init(
                    name: "t",
                    sql:
                        "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL CHECK (length(text) < 3), rank INTEGER, pinned INTEGER, created REAL, tags TEXT, kind TEXT, score REAL, attachment BLOB)"
                )
            ])
        let repository = try SQLiteRepository<Note>(store: constraint)
        await #expect(throws: PersistenceError.self) {
            try await repository.save([note("1", text: "ok"), note("2", text: "too long")])
        }
        #expect(try await repository.count(.all) == 0, "a failed save writes nothing")
        #expect(
            PersistenceError.coding("x").description.contains("coding")
                && PersistenceError.database("y").description.contains("database"))
    }

    @Test func aStoreForWhatMustSurviveAPowerCutSyncsEveryCommit() throws {
        let note = [SQLiteStore.Migration(name: "v1", sql: "CREATE TABLE notes (id TEXT PRIMARY KEY)")]
        let everyday = try SQLiteStore(path: path(), migrations: note)
        #expect(everyday.durability == .appCrash)
        #expect(try everyday.writerSynchronousLevel() == 1, "NORMAL: the log is synced at checkpoints")
        let outbox = try SQLiteStore(path: path(), migrations: note, durability: .powerLoss)
        #expect(try outbox.writerSynchronousLevel() == 2, "FULL: the log is synced at every commit")
    }

    @Test func badStoredValuesFailToDecode() async throws {
        let store = try SQLiteStore(
            path: path(),
            migrations: [
                .init(
                    name: "t",
                    sql:
                        "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT, rank INTEGER, pinned INTEGER, created REAL, tags TEXT, kind TEXT, score REAL, attachment BLOB); INSERT INTO notes VALUES ('1', 'x', 'not a number', 0, 0, '[]', 'draft', NULL, NULL)"
                )
            ])
        await #expect(throws: PersistenceError.self) { try await SQLiteRepository<Note>(store: store).fetch(.all) }
    }
}
