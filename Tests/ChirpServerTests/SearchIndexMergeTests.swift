import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// The SQLite search index is merged by its indexer in short jobs of their own, not inside
/// the job that writes a chunk (issue 53's writer holds): FTS5's automerge is off, and a
/// level of eight segments still becomes one.
@Suite("SQLite search index merges")
struct SearchIndexMergeTests {
    @Test func theIndexerMergesLevelsOfEightInJobsOfTheirOwn() async throws {
        let directory = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"), searchIndexPeriod: nil)
        let chunks = 10
        try await storage.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at)
                    VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1)
                    """)
            for n in 0..<(chunks * SQLiteSearchIndexer.chunk) {
                try db.execute(
                    sql: """
                        INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at)
                        VALUES (1, 2, 1, 2, ?, ?, 1)
                        """,
                    arguments: ["c\(n)", "hello number\(n)"])
            }
        }
        let automerge = try await storage.read { db in
            try Int.fetchOne(db, sql: "SELECT v FROM message_search_config WHERE k = 'automerge'")
        }
        #expect(automerge == 0, "FTS5 merges nothing inside a write")

        let read = try await storage.searchIndexer?.catchUp()
        #expect(read == chunks * SQLiteSearchIndexer.chunk)
        // One segment per chunk written; without the indexer's merges there would be ten.
        let segments = try await storage.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT segid) FROM message_search_idx") ?? 0
        }
        #expect(segments < 8, "levels of eight were merged (\(segments) segments)")
        let found = try await storage.searchMessages(
            viewer: 2, peerKey: nil, words: ["number7"], before: .max, limit: 10)
        #expect(found?.map(\.text) == ["hello number7"], "the merged index still finds every message")
        let all = try await storage.searchMessages(viewer: 1, peerKey: nil, words: ["hello"], before: .max, limit: 700)
        #expect(all?.count == chunks * SQLiteSearchIndexer.chunk)
    }
}
