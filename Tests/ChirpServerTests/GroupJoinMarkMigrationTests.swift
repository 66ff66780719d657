@testable import ChirpServer
import Foundation
import GRDB
import Testing

/// The SQLite migration that gives the members of groups made before join marks a mark of
/// their group's own (issue 38): groups with no message get distinct marks above every message
/// id, in the order they were made, and the sequence moves past them; groups with messages
/// keep their members' windows.
@Suite("Group join mark migration")
struct GroupJoinMarkMigrationTests {
    @Test func emptyGroupsGetMarksOfTheirOwnAboveEveryMessage() throws {
        let queue = try DatabaseQueue()
        try SQLiteSchema.migrator.migrate(queue, upTo: "v18-group-take-downs")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1);
                INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (1, 2, 1, 2, 'd1', 'hi', 1);
                INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key) VALUES (1, 'a', 'Empty', 1, 'k'), (1, 'b', 'Talk', 1, 'k'), (1, 'c', 'Quiet', 1, 'k');
                INSERT INTO group_members (group_id, user_id, role, joined_at, join_seq, first_message_id) VALUES
                    (1, 1, 'admin', 1, 1, 0), (1, 2, 'member', 1, 2, 0), (2, 1, 'admin', 1, 1, 0), (2, 2, 'member', 1, 2, 0), (3, 1, 'admin', 1, 1, 0);
                UPDATE sqlite_sequence SET seq = 2 WHERE name = 'messages';
                INSERT INTO group_messages (id, group_id, sender_id, client_message_id, text, created_at) VALUES (2, 2, 1, 'g1', 'hello', 1);
                """)
        }
        try SQLiteSchema.migrator.migrate(queue)
        let marks = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT group_id, first_message_id FROM group_members ORDER BY group_id, user_id")
                .map { [$0[0] as Int64, $0[1] as Int64] }
        }
        let empty = marks.filter { $0[0] == 1 }.map { $0[1] }
        let quiet = try #require(marks.first { $0[0] == 3 }?[1])
        let mark = try #require(empty.first)
        #expect(empty.count == 2 && Set(empty).count == 1, "one mark for the group's members")
        #expect(mark > 2 && quiet > mark, "above every message, in the order the groups were made")
        #expect(marks.filter { $0[0] == 2 }.map { $0[1] } == [0, 0], "a group with a message keeps its members' windows")
        let next = try queue.write { db in
            try db.execute(sql: "INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at) VALUES (2, 1, 1, 2, 'd2', 'yo', 2)")
            return db.lastInsertedRowID
        }
        #expect(next > quiet, "the next message id is past every mark")
    }
}
