import GRDB

/// The schema of group conversations (API.md part 3), as a SQLite migration of its own. Group
/// messages are a table apart from `messages`, so direct sends do no more work than before;
/// their ids come from the same sequence (`SQLiteScope.nextMessageId`), so a message id is
/// unique across the server.
enum SQLiteGroupsSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17-groups") { db in
            // A member row stays after its member leaves (`removed_at`): they keep reading the
            // messages up to `last_message_id`. `join_seq` orders members by standing. A group
            // message's `words` are its `SearchTerms` (`GroupSearch.column`), matched with LIKE.
            try db.execute(
                sql: """
                    CREATE TABLE chat_groups (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        creator_id INTEGER NOT NULL REFERENCES users(id),
                        client_group_id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        request_key TEXT NOT NULL,
                        ended INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (creator_id, client_group_id)
                    );
                    CREATE TABLE group_members (
                        group_id INTEGER NOT NULL REFERENCES chat_groups(id),
                        user_id INTEGER NOT NULL REFERENCES users(id),
                        role TEXT NOT NULL,
                        joined_at INTEGER NOT NULL,
                        join_seq INTEGER NOT NULL,
                        first_message_id INTEGER NOT NULL,
                        last_message_id INTEGER,
                        removed_at INTEGER,
                        read_up_to INTEGER NOT NULL DEFAULT 0,
                        request INTEGER NOT NULL DEFAULT 0,
                        pin_order INTEGER,
                        muted INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (group_id, user_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX group_members_by_user ON group_members(user_id);
                    CREATE TABLE group_messages (
                        id INTEGER PRIMARY KEY,
                        group_id INTEGER NOT NULL REFERENCES chat_groups(id),
                        sender_id INTEGER NOT NULL REFERENCES users(id),
                        client_message_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        reply_to INTEGER,
                        edited_at INTEGER,
                        reactions TEXT,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        media_json TEXT NOT NULL DEFAULT '[]',
                        words TEXT NOT NULL DEFAULT '',
                        UNIQUE (group_id, sender_id, client_message_id)
                    );
                    CREATE INDEX group_messages_by_group ON group_messages(group_id, id);
                    CREATE TABLE group_message_media (
                        message_id INTEGER NOT NULL REFERENCES group_messages(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                        PRIMARY KEY (message_id, position)
                    );
                    CREATE INDEX group_message_media_by_media ON group_message_media(media_id);
                    CREATE TABLE group_reads (
                        group_id INTEGER NOT NULL,
                        user_id INTEGER NOT NULL,
                        up_to INTEGER NOT NULL,
                        read_at INTEGER NOT NULL,
                        PRIMARY KEY (group_id, user_id, up_to)
                    ) WITHOUT ROWID;
                    """)
        }
        // Operators' take-downs of group messages (as of direct ones): the tombstone says so.
        migrator.registerMigration("v18-group-take-downs") { db in
            try db.execute(sql: "ALTER TABLE group_messages ADD COLUMN removed_by_operators INTEGER NOT NULL DEFAULT 0")
        }
        // Join marks (`GroupSQL.addMember`): a group with no message yet is listed at its
        // members' mark. Groups created before had members from 0: each gets a mark of its own
        // above every id the sequence gave, in the order the groups were made.
        migrator.registerMigration("v19-group-join-marks") { db in
            try db.execute(
                sql: """
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', (SELECT COALESCE(MAX(id), 0) FROM messages)
                    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages');
                    UPDATE group_members SET first_message_id = (SELECT seq FROM sqlite_sequence WHERE name = 'messages') + group_id
                    WHERE NOT EXISTS (SELECT 1 FROM group_messages m WHERE m.group_id = group_members.group_id);
                    UPDATE sqlite_sequence SET seq = seq + (SELECT COALESCE(MAX(id), 0) FROM chat_groups) WHERE name = 'messages';
                    """)
        }
    }
}
