import ChirpModels
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ChirpServer

/// The migration `v24-message-events-point-at-rows` (issue 53), on both databases, from a
/// database as the schema before it left it: the message events stored as JSON copies
/// (PostgreSQL's, and SQLite's group events and edits) become pointers at their messages, and
/// a stream built from the rows shows each message as its row now holds it (a tombstone with
/// no text); an event whose message is missing and every other event keep their JSON.
@Suite("Message events point at rows: migration")
struct MessageEventPointerMigrationTests {
    /// ann (1) and bob (2), group 1 of both; direct message 1 (ann → bob, edited to "hello
    /// again"), group message 2 (bob's) and direct message 3 (unsent: a tombstone). bob's
    /// stream: their events as copies, the unsend's notice, one about a message that is gone
    /// (99) and a follow.
    static let legacyRows = [
        "INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1)",
        "INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, edited_at) VALUES (1, 1, 2, 1, 2, 'c1', 'hello again', 1000, 1500)",
        "INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key) VALUES (1, 'g', 'Talk', 1, 'k')",
        "INSERT INTO group_members (group_id, user_id, role, joined_at, join_seq, first_message_id) VALUES (1, 1, 'admin', 1, 1, 0), (1, 2, 'member', 1, 2, 0)",
        "INSERT INTO messages (id, group_id, sender_id, client_message_id, text, created_at) VALUES (2, 1, 2, 'c2', 'group hi', 2000)",
        "INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, deleted) VALUES (3, 1, 2, 1, 2, 'c3', '', 3000, TRUE)",
        """
        INSERT INTO events (user_id, seq, type, created_at, data) VALUES
            (2, 1, 'message.created', 1000, '{"id":"1","sender":"ann","recipient":"bob","text":"hello","clientMessageId":"c1"}'),
            (2, 2, 'message.updated', 1500, '{"id":"1","sender":"ann","recipient":"bob","text":"hello again","clientMessageId":"c1"}'),
            (2, 3, 'message.created', 2000, '{"id":"2","sender":"bob","group":"1","text":"group hi","clientMessageId":"c2"}'),
            (2, 4, 'message.deleted', 3000, '{"id":"3","sender":"ann","recipient":"bob"}'),
            (2, 5, 'message.created', 4000, '{"id":"99","sender":"ann","recipient":"bob","text":"gone","clientMessageId":"c9"}'),
            (2, 6, 'follow.created', 5000, '{"follower":{"username":"ann"}}')
        """,
    ]

    /// bob's events after the migration: seq, message pointed at (0: none) and stored data.
    static let expectedRows: [[String]] = [
        ["1", "1", ""], ["2", "1", ""], ["3", "2", ""], ["4", "3", ""],
        ["5", "0", #"{"id":"99","sender":"ann","recipient":"bob","text":"gone","clientMessageId":"c9"}"#],
        ["6", "0", #"{"follower":{"username":"ann"}}"#],
    ]

    static let rowsQuery = "SELECT seq, COALESCE(message_id, 0), data FROM events WHERE user_id = 2 ORDER BY seq"

    @Test func onSQLite() async throws {
        let legacy = try LegacySQLiteDatabase(migratedUpTo: "v23-bounded-groups")
        defer { legacy.remove() }
        let (url, queue) = (legacy.url, legacy.queue)
        try await queue.write { db in
            for statement in Self.legacyRows { try db.execute(sql: statement) }
        }
        try SQLiteSchema.migrator.migrate(queue)
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: Self.rowsQuery).map { row -> [String] in
                [String(row[0] as Int64), String(row[1] as Int64), row[2] as String]
            }
        }
        #expect(rows == Self.expectedRows)
        try queue.close()

        let storage = try SQLiteStorage(url: url, searchIndexPeriod: nil)
        try await Self.expectStreamBuiltFromRows(storage)
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func onPostgreSQL() async throws {
        try await TestDatabase.withFreshDatabase { connection, logger in
            try await PostgresSchema.migrate(connection, logger: logger, upTo: "v23-bounded-groups")
            // PostgreSQL keeps each stream's head in `users`.
            for statement in Self.legacyRows + ["UPDATE users SET last_seq = 6 WHERE id = 2"] {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            let applied = try await PostgresSchema.migrate(connection, logger: logger)
            #expect(applied.first == EventSQL.migrationName)
            var rows: [[String]] = []
            for try await (seq, message, data) in try await connection.query(
                PostgresQuery(unsafeSQL: Self.rowsQuery), logger: logger
            ).decode((Int64, Int64, String).self) {
                rows.append([String(seq), String(message), data])
            }
            #expect(rows == Self.expectedRows)
            // The stream as the storage builds it, from one scope on this connection.
            var events: [EventRow] = []
            for try await row in try await connection.query(
                PostgresQuery(
                    unsafeSQL: EventSQL.stream(of: "$1"), binds: PostgresStorage.binds(Int64(2), Int64(0), 10)),
                logger: logger)
            {
                events.append(try EventColumns.eventRow(from: row.makeRandomAccess()))
            }
            try Self.expectBuiltFromRows(events.map(EventService.event(from:)))
        }
    }

    /// bob's stream as the storage reads it.
    static func expectStreamBuiltFromRows(_ storage: some EventStore) async throws {
        let rows = try await storage.events(userId: 2, since: 0, limit: 10)
        #expect(rows.head == 6)
        try expectBuiltFromRows(rows.events.map(EventService.event(from:)))
    }

    /// Each message event shows its message as the row holds it now; the rest as stored.
    static func expectBuiltFromRows(_ events: [StoredEvent]) throws {
        #expect(events.map(\.seq) == Array(1...6))
        func message(_ index: Int) throws -> Message {
            try JSONDecoder().decode(Message.self, from: Data(events[index].json.utf8))
        }
        let created = try message(0)
        #expect(created.text == "hello again" && created.recipient == "bob" && created.editedAt != nil)
        #expect(try message(1).text == "hello again")
        let group = try message(2)
        #expect(group.group == "1" && group.text == "group hi" && group.sender == "bob")
        let notice = try JSONSerialization.jsonObject(with: Data(events[3].json.utf8)) as? [String: Any]
        #expect(notice?["id"] as? String == "3" && notice?["sender"] as? String == "ann")
        #expect(events[4].json.contains("gone"), "a message that is missing keeps the copy")
        #expect(events[5].json == #"{"follower":{"username":"ann"}}"#)
    }
}
