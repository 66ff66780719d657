import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ChirpServer

/// The migration `v19-group-join-marks` (issue 38), on both databases: the members of groups
/// made before join marks, with no message, get a mark of their group's own above every
/// message id, in the order the groups were made, and the sequence moves past them; groups
/// with messages keep their members' windows.
@Suite("Group join mark migration")
struct GroupJoinMarkMigrationTests {
    static let migration = "v19-group-join-marks"

    /// Before the migration: a direct message (id 1); groups 1 and 3 with no message, every
    /// member from 0; group 2 with message 2.
    static let legacyRows = [
        "INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1)",
        "INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (1, 2, 1, 2, 'd1', 'hi', 1)",
        "INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key) VALUES (1, 'a', 'Empty', 1, 'k'), (1, 'b', 'Talk', 1, 'k'), (1, 'c', 'Quiet', 1, 'k')",
        """
        INSERT INTO group_members (group_id, user_id, role, joined_at, join_seq, first_message_id) VALUES
            (1, 1, 'admin', 1, 1, 0), (1, 2, 'member', 1, 2, 0), (2, 1, 'admin', 1, 1, 0), (2, 2, 'member', 1, 2, 0), (3, 1, 'admin', 1, 1, 0)
        """,
    ]

    /// Group 2's message, with id `id` (SQL) from the message sequence.
    static func groupMessage(id: String) -> String {
        "INSERT INTO group_messages (id, group_id, sender_id, client_message_id, text, created_at) VALUES (\(id), 2, 1, 'g1', 'hello', 1)"
    }

    static let marksQuery = "SELECT group_id, first_message_id FROM group_members ORDER BY group_id, user_id"
    static let nextDirect =
        "INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (2, 1, 1, 2, 'd2', 'yo', 2)"

    /// Checks the members' marks (`[group, first_message_id]` by group and user) and the id
    /// the next direct message took.
    static func check(_ marks: [[Int64]], next: Int64) throws {
        let empty = marks.filter { $0[0] == 1 }.map { $0[1] }
        let quiet = try #require(marks.first { $0[0] == 3 }?[1])
        let mark = try #require(empty.first)
        #expect(empty.count == 2 && Set(empty).count == 1, "one mark for the group's members")
        #expect(mark > 2 && quiet > mark, "above every message, in the order the groups were made: \(marks)")
        #expect(
            marks.filter { $0[0] == 2 }.map { $0[1] } == [0, 0], "a group with a message keeps its members' windows")
        #expect(next > quiet, "the next message id is past every mark")
    }

    @Test func onSQLite() throws {
        let queue = try DatabaseQueue()
        try SQLiteSchema.migrator.migrate(queue, upTo: "v18-group-take-downs")
        try queue.write { db in
            for statement in Self.legacyRows { try db.execute(sql: statement) }
            // As `SQLiteStorage.nextMessageId` takes an id.
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = 2 WHERE name = 'messages'")
            try db.execute(sql: Self.groupMessage(id: "2"))
        }
        try SQLiteSchema.migrator.migrate(queue)
        let marks = try queue.read { db in
            try Row.fetchAll(db, sql: Self.marksQuery).map { [$0[0] as Int64, $0[1] as Int64] }
        }
        let next = try queue.write { db in
            try db.execute(sql: Self.nextDirect)
            return db.lastInsertedRowID
        }
        try Self.check(marks, next: next)
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func onPostgreSQL() async throws {
        try await TestDatabase.withFreshDatabase { connection, logger in
            // The migrations before, the rows of before, then this one.
            try await PostgresSchema.migrate(connection, logger: logger, upTo: "v18-group-take-downs")
            for statement in Self.legacyRows + [
                Self.groupMessage(id: "nextval(pg_get_serial_sequence('messages', 'id'))")
            ] {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            #expect(
                try await PostgresSchema.migrate(connection, logger: logger, upTo: Self.migration) == [Self.migration])
            var marks: [[Int64]] = []
            for try await (group, first) in try await connection.query(
                PostgresQuery(unsafeSQL: Self.marksQuery), logger: logger
            )
            .decode((Int64, Int64).self) {
                marks.append([group, first])
            }
            var next: Int64 = 0
            for try await id in try await connection.query(
                PostgresQuery(unsafeSQL: Self.nextDirect + " RETURNING id"), logger: logger
            )
            .decode(Int64.self) {
                next = id
            }
            try Self.check(marks, next: next)
        }
    }
}
