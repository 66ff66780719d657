import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ChirpServer

/// The migration `v22-one-message-table` (issue 38), on both databases: group messages become
/// rows of `messages` with their ids, text and tombstones, their media links join
/// `message_media`, their search words join the direct messages' index, the group tables go,
/// and client ids stay unique per sender among direct messages and per sender and group among
/// a group's.
@Suite("One message table migration")
struct OneMessageTableMigrationTests {
    /// Before the migration: ann (1) and bob (2); direct message 1 under client id `same`;
    /// group 1 of both with message 2 (ann's, also `same`, with media 1) and message 3 (bob's,
    /// unsent).
    static let legacyRows = [
        "INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1)",
        "INSERT INTO media (owner_id, client_media_id, content_type, size, sha256, created_at) VALUES (1, 'm1', 'image/png', 10, 'abc', 1)",
        "INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (1, 1, 2, 1, 2, 'same', 'direct hello', 1)",
        "INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key) VALUES (1, 'g', 'Talk', 1, 'k')",
        "INSERT INTO group_members (group_id, user_id, role, joined_at, join_seq, first_message_id) VALUES (1, 1, 'admin', 1, 1, 0), (1, 2, 'member', 1, 2, 0)",
        """
        INSERT INTO group_messages (id, group_id, sender_id, client_message_id, text, created_at, deleted, words) VALUES
            (2, 1, 1, 'same', 'group hello', 2, FALSE, ' group hello '), (3, 1, 2, 'b', '', 3, TRUE, '')
        """,
        "INSERT INTO group_message_media (message_id, position, media_id) VALUES (2, 0, 1)",
        "INSERT INTO message_media (message_id, position, media_id) VALUES (1, 0, 1)",
    ]

    /// Every message's id, group, recipient, client id, text and tombstone flag, by id.
    static let rowsQuery = """
        SELECT id, COALESCE(group_id, 0), COALESCE(recipient_id, 0), client_message_id, text, deleted FROM messages ORDER BY id
        """

    struct Stored: Equatable {
        let id: Int64, group: Int64, recipient: Int64
        let clientId: String, text: String, deleted: Bool
    }

    static let expected = [
        Stored(id: 1, group: 0, recipient: 2, clientId: "same", text: "direct hello", deleted: false),
        Stored(id: 2, group: 1, recipient: 0, clientId: "same", text: "group hello", deleted: false),
        Stored(id: 3, group: 1, recipient: 0, clientId: "b", text: "", deleted: true),
    ]

    static let mediaQuery = "SELECT message_id, media_id FROM message_media ORDER BY message_id"

    /// Inserts that must fail afterwards: a direct message under a client id its sender used
    /// for one, a group message under one its sender used in that group, and a row naming
    /// both a recipient and a group.
    static let refused = [
        "INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (1, 2, 1, 2, 'same', 'again', 4)",
        "INSERT INTO messages (id, sender_id, group_id, client_message_id, text, created_at) VALUES (20, 1, 1, 'same', 'again', 4)",
        "INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, group_id, client_message_id, text, created_at) VALUES (21, 1, 2, 1, 2, 1, 'both', 'x', 4)",
    ]

    /// Inserts that must pass: the same new client id for a direct message and a group one.
    static let accepted = [
        "INSERT INTO messages (id, sender_id, group_id, client_message_id, text, created_at) VALUES (22, 1, 1, 'new', 'group', 5)",
        "INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (1, 2, 1, 2, 'new', 'direct', 6)",
    ]

    @Test func onSQLite() async throws {
        let legacy = try LegacySQLiteDatabase(migratedUpTo: "v21-search-index-mark")
        defer { legacy.remove() }
        let (url, queue) = (legacy.url, legacy.queue)
        try await queue.write { db in
            for statement in Self.legacyRows { try db.execute(sql: statement) }
            // As `SQLiteStorage.nextMessageId` takes ids and join marks: the sequence ran ahead.
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = 10 WHERE name = 'messages'")
            // The indexer has passed all three; it indexed the direct one.
            try db.execute(sql: "UPDATE search_index_mark SET indexed_through = 3")
            try SQLiteMessageSearch.add(db, messageId: 1, text: "direct hello", sender: 1, recipient: 2)
        }
        try SQLiteSchema.migrator.migrate(queue)
        try await queue.write { db in
            let rows = try Row.fetchAll(db, sql: Self.rowsQuery).map {
                Stored(id: $0[0], group: $0[1], recipient: $0[2], clientId: $0[3], text: $0[4], deleted: $0[5])
            }
            #expect(rows == Self.expected)
            func matches(_ query: String) throws -> [Int64] {
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                    arguments: [query])
            }
            #expect(
                try matches(#""g1xgroup" AND "g1xhello""#) == [2],
                "a group message below the mark joined the index under its group")
            #expect(try matches(#""u1xhello""#) == [1])
            #expect(
                try Row.fetchAll(db, sql: Self.mediaQuery).map { [$0[0] as Int64, $0[1] as Int64] } == [
                    [1, 1], [2, 1],
                ])
            #expect(
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('group_messages', 'group_message_media')")
                    == 0)
            for statement in Self.refused {
                #expect(throws: DatabaseError.self, "\(statement)") { try db.execute(sql: statement) }
            }
            for statement in Self.accepted { try db.execute(sql: statement) }
            #expect(db.lastInsertedRowID > 22, "the sequence kept its place above ids and join marks")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
        try queue.close()

        // The storage reads the group from the one table, and direct search skips group rows,
        // both above the search index's mark and once indexed.
        let storage = try SQLiteStorage(url: url, searchIndexPeriod: nil)
        let page = try await storage.groupMessages(
            groupId: 1, viewer: 2, after: 0, before: .max, ascending: true, limit: 10)
        #expect(page?.map(\.id) == ["2", "3", "22"])
        #expect(page?.first?.group == "1" && page?[1].deleted == true)
        for round in ["above the mark", "indexed"] {
            #expect(
                try await storage.searchGroupMessages(viewer: 2, group: 1, words: ["hello"], before: .max, limit: 10)?
                    .map(\.id) == ["2"], "\(round)")
            #expect(
                try await storage.searchGroupMessages(viewer: 2, group: nil, words: ["group"], before: .max, limit: 10)?
                    .map(\.id) == ["22", "2"], "\(round)")
            #expect(
                try await storage.searchMessages(viewer: 1, peerKey: nil, words: ["hello"], before: .max, limit: 10)?
                    .map(\.id) == ["1"], "\(round)")
            _ = try await storage.searchIndexer?.catchUp()
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func onPostgreSQL() async throws {
        try await TestDatabase.withFreshDatabase { connection, logger in
            try await PostgresSchema.migrate(connection, logger: logger, upTo: "v19-group-join-marks")
            // The group messages' ids came from the sequence, as `sendGroupMessage` takes them.
            for statement in Self.legacyRows + ["SELECT setval(pg_get_serial_sequence('messages', 'id'), 10)"] {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            let applied = try await PostgresSchema.migrate(connection, logger: logger)
            // This migration first, any later ones, then the send-batch functions made anew.
            #expect(applied.first == "v22-one-message-table")
            #expect(
                applied.suffix(2) == ["function chirp_send_batch", "function chirp_send_batch_confirming"], "\(applied)"
            )
            var rows: [Stored] = []
            for try await (id, group, recipient, clientId, text, deleted) in try await connection.query(
                PostgresQuery(unsafeSQL: Self.rowsQuery), logger: logger
            ).decode((Int64, Int64, Int64, String, String, Bool).self) {
                rows.append(
                    Stored(id: id, group: group, recipient: recipient, clientId: clientId, text: text, deleted: deleted)
                )
            }
            #expect(rows == Self.expected)
            for try await words in try await connection.query(
                "SELECT search_words FROM messages WHERE id = 2", logger: logger
            )
            .decode([String].self) {
                #expect(words == ["group", "hello"], "the group message's words are under the GIN index")
            }
            var media: [[Int64]] = []
            for try await (message, item) in try await connection.query(
                PostgresQuery(unsafeSQL: Self.mediaQuery), logger: logger
            )
            .decode((Int64, Int64).self) {
                media.append([message, item])
            }
            #expect(media == [[1, 1], [2, 1]])
            for try await gone in try await connection.query(
                "SELECT to_regclass('group_messages') IS NULL AND to_regclass('group_message_media') IS NULL",
                logger: logger
            ).decode(Bool.self) {
                #expect(gone)
            }
            for statement in Self.refused {
                await #expect(throws: PSQLError.self, "\(statement)") {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            for statement in Self.accepted {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            #expect(
                try await PostgresSchema.migrate(connection, logger: logger).isEmpty,
                "the functions are made only when their text changed")
        }
    }
}
