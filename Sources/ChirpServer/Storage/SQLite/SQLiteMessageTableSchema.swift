import GRDB

/// One table of messages for every conversation (issue 38), as a SQLite migration of its own.
///
/// A direct message names its recipient (and its pair, `user_lo`/`user_hi`); a group message
/// names its group instead. Both are rows of `messages` with ids from its one sequence, their
/// media in `message_media`, the same columns for replies, edits, reactions, tombstones and
/// take-downs, and one search index (`message_search`, a group message's words under its
/// group: `SQLiteMessageSearch`), where group messages kept LIKE patterns in a column. Client ids are unique
/// per sender among direct messages and per sender and group among a group's, as before.
enum SQLiteMessageTableSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        // SQLite cannot make a column nullable in place: the table is made again (SQLite's
        // twelve steps), every id kept, so the search index (keyed by id), events, media
        // links and join marks still point where they did.
        migrator.registerMigration("v22-one-message-table") { db in
            // Join marks come from the sequence above every message (`GroupSQL.addMember`):
            // the new table's sequence starts where the old one stood.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'messages'") ?? 0
            try db.execute(
                sql: """
                    CREATE TABLE messages_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        sender_id INTEGER NOT NULL REFERENCES users(id),
                        recipient_id INTEGER REFERENCES users(id),
                        user_lo INTEGER,
                        user_hi INTEGER,
                        group_id INTEGER REFERENCES chat_groups(id),
                        client_message_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        read INTEGER NOT NULL DEFAULT 0,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        media_json TEXT NOT NULL DEFAULT '[]',
                        reply_to INTEGER,
                        edited_at INTEGER,
                        reactions TEXT,
                        removed_by_operators INTEGER NOT NULL DEFAULT 0,
                        CHECK ((group_id IS NULL) = (recipient_id IS NOT NULL))
                    );
                    INSERT INTO messages_new (
                        id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, read, deleted,
                        media_json, reply_to, edited_at, reactions, removed_by_operators)
                    SELECT id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, read, deleted,
                        media_json, reply_to, edited_at, reactions, removed_by_operators
                    FROM messages;
                    INSERT INTO messages_new (
                        id, sender_id, group_id, client_message_id, text, created_at, deleted,
                        media_json, reply_to, edited_at, reactions, removed_by_operators)
                    SELECT id, sender_id, group_id, client_message_id, text, created_at, deleted,
                        media_json, reply_to, edited_at, reactions, removed_by_operators
                    FROM group_messages;
                    INSERT INTO message_media (message_id, position, media_id)
                    SELECT message_id, position, media_id FROM group_message_media;
                    DROP TABLE group_message_media;
                    DROP TABLE group_messages;
                    DROP TABLE messages;
                    ALTER TABLE messages_new RENAME TO messages;
                    CREATE INDEX messages_by_pair ON messages(user_lo, user_hi, id);
                    CREATE UNIQUE INDEX messages_by_client_id ON messages(sender_id, client_message_id) WHERE group_id IS NULL;
                    CREATE UNIQUE INDEX messages_by_group_client_id ON messages(group_id, sender_id, client_message_id)
                        WHERE group_id IS NOT NULL;
                    CREATE INDEX messages_by_group ON messages(group_id, id) WHERE group_id IS NOT NULL;
                    """)
            try db.execute(
                sql: """
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', 0
                    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages');
                    UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'messages';
                    """,
                arguments: [sequence])
            // The group messages among those the indexer has passed (at or below its mark)
            // join the index; those above it are indexed as direct ones are.
            let mark = try SQLiteMessageSearch.indexedThrough(db)
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT id, text, group_id FROM messages WHERE group_id IS NOT NULL AND deleted = 0 AND id <= ?",
                arguments: [mark])
            while let row = try rows.next() {
                try SQLiteMessageSearch.add(db, messageId: row[0], text: row[1], owner: .group(row[2]))
            }
        }
    }
}
