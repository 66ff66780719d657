import ChirpModels
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ChirpServer

/// The migration `v28-one-unread-model` (issue 53), on both databases, from a database as the
/// schema before it left it: each direct conversation's unread counter becomes a read mark
/// that leaves exactly as many of the peer's messages unread, the counter goes, and a read
/// then moves the mark.
@Suite("One unread model: migration")
struct ReadMarkMigrationTests {
    /// ann (1), bob (2) and cat (3). ann → bob 1, 2, 3, bob → ann 4, ann → bob 5 (unsent: a
    /// tombstone, which counts as the message it was) and 6; ann → cat 7. bob had 3 unread
    /// (5, 6 and 3 are the newest three of ann's), ann none, cat 1 (all of ann's).
    static let legacyRows = [
        """
        INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES
            ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1), ('cat', 'cat', 'cat', 'x', 1)
        """,
        """
        INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, deleted) VALUES
            (1, 1, 2, 1, 2, 'c1', 'one', 1000, FALSE), (2, 1, 2, 1, 2, 'c2', 'two', 2000, FALSE),
            (3, 1, 2, 1, 2, 'c3', 'three', 3000, FALSE), (4, 2, 1, 1, 2, 'c4', 'four', 4000, FALSE),
            (5, 1, 2, 1, 2, 'c5', '', 5000, TRUE), (6, 1, 2, 1, 2, 'c6', 'six', 6000, FALSE),
            (7, 1, 3, 1, 3, 'c7', 'seven', 7000, FALSE)
        """,
        """
        INSERT INTO conversations (owner_id, peer_id, last_message_id, unread_count, has_received) VALUES
            (1, 2, 6, 0, TRUE), (2, 1, 6, 3, TRUE), (1, 3, 7, 0, FALSE), (3, 1, 7, 1, TRUE)
        """,
    ]

    /// Each conversation after the migration: owner, peer, read mark, unread count.
    static let expected: [[Int64]] = [[1, 2, 4, 0], [1, 3, 0, 0], [2, 1, 2, 3], [3, 1, 0, 1]]

    static let marksQuery = """
        SELECT c.owner_id, c.peer_id, c.read_up_to, \(StorageSQL.directUnread(conversation: "c")) AS unread
        FROM conversations c ORDER BY c.owner_id, c.peer_id
        """

    @Test func onSQLite() async throws {
        let legacy = try LegacySQLiteDatabase(migratedUpTo: EncryptionSchemaSQL.name)
        defer { legacy.remove() }
        let (url, queue) = (legacy.url, legacy.queue)
        try await queue.write { db in
            for statement in Self.legacyRows { try db.execute(sql: statement) }
        }
        try SQLiteSchema.migrator.migrate(queue)
        let (marks, columns) = try await queue.read { db in
            (
                try Row.fetchAll(db, sql: Self.marksQuery).map { row in (0..<4).map { row[$0] as Int64 } },
                try db.columns(in: "conversations").map(\.name)
            )
        }
        #expect(marks == Self.expected)
        #expect(!columns.contains("unread_count"), "the counter is gone")
        try queue.close()

        let storage = try SQLiteStorage(url: url, searchIndexPeriod: nil)
        try await Self.expectReadsMoveTheMark(storage)
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func onPostgreSQL() async throws {
        try await TestDatabase.withFreshDatabase { connection, logger in
            try await PostgresSchema.migrate(connection, logger: logger, upTo: EncryptionSchemaSQL.name)
            for statement in Self.legacyRows {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            let applied = try await PostgresSchema.migrate(connection, logger: logger)
            #expect(applied.first == ReadMarkSchemaSQL.name)
            var marks: [[Int64]] = []
            for try await (owner, peer, mark, unread) in try await connection.query(
                PostgresQuery(unsafeSQL: Self.marksQuery), logger: logger
            ).decode((Int64, Int64, Int64, Int64).self) {
                marks.append([owner, peer, mark, unread])
            }
            #expect(marks == Self.expected)
            var columns: [String] = []
            for try await name in try await connection.query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'conversations'", logger: logger
            ).decode(String.self) {
                columns.append(name)
            }
            #expect(!columns.isEmpty && !columns.contains("unread_count"), "the counter is gone")
        }
    }

    /// bob reads up to 5 without a receipt: 6 stays unread; a read never moves the mark back.
    static func expectReadsMoveTheMark(_ storage: some MessageStore) async throws {
        func unread() async throws -> Int? {
            try await storage.conversations(viewer: 2, before: .max, limit: 10, requests: false)
                .first?.item.unreadCount
        }
        #expect(try await unread() == 3)
        _ = try await storage.markRead(reader: 2, peerKey: "ann", upTo: 5, at: Timestamp(millisecondsSince1970: 8000)) {
            _, _ in nil
        }
        #expect(try await unread() == 1)
        _ = try await storage.markRead(reader: 2, peerKey: "ann", upTo: 1, at: Timestamp(millisecondsSince1970: 9000)) {
            _, _ in nil
        }
        #expect(try await unread() == 1, "an older read leaves the mark where it is")
    }
}
