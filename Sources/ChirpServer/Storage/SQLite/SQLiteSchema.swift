import GRDB

/// The server database's schema, as its history of migrations.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL UNIQUE,
                        display_name TEXT NOT NULL,
                        password_hash TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        followers_count INTEGER NOT NULL DEFAULT 0,
                        following_count INTEGER NOT NULL DEFAULT 0,
                        last_seq INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE sessions (
                        token_hash BLOB PRIMARY KEY,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        expires_at INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX sessions_by_user ON sessions(user_id);
                    CREATE TABLE follows (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        follower_id INTEGER NOT NULL REFERENCES users(id),
                        followee_id INTEGER NOT NULL REFERENCES users(id),
                        created_at INTEGER NOT NULL,
                        UNIQUE (follower_id, followee_id)
                    );
                    CREATE INDEX follows_by_followee ON follows(followee_id, id);
                    CREATE INDEX follows_by_follower ON follows(follower_id, id);
                    CREATE TABLE messages (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        sender_id INTEGER NOT NULL REFERENCES users(id),
                        recipient_id INTEGER NOT NULL REFERENCES users(id),
                        user_lo INTEGER NOT NULL,
                        user_hi INTEGER NOT NULL,
                        client_message_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        read INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (sender_id, client_message_id)
                    );
                    CREATE INDEX messages_by_pair ON messages(user_lo, user_hi, id);
                    CREATE TABLE conversations (
                        owner_id INTEGER NOT NULL REFERENCES users(id),
                        peer_id INTEGER NOT NULL REFERENCES users(id),
                        last_message_id INTEGER NOT NULL,
                        unread_count INTEGER NOT NULL DEFAULT 0,
                        has_received INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (owner_id, peer_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX conversations_by_recency ON conversations(owner_id, last_message_id);
                    CREATE TABLE tweets (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        author_id INTEGER NOT NULL REFERENCES users(id),
                        client_tweet_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        UNIQUE (author_id, client_tweet_id)
                    );
                    CREATE INDEX tweets_by_author ON tweets(author_id, id);
                    CREATE TABLE events (
                        user_id INTEGER NOT NULL REFERENCES users(id),
                        seq INTEGER NOT NULL,
                        type TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        data TEXT NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v2-client-logs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE log_batches (
                        user_id INTEGER NOT NULL REFERENCES users(id),
                        batch_id TEXT NOT NULL,
                        received_at INTEGER NOT NULL,
                        PRIMARY KEY (user_id, batch_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE client_logs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id),
                        batch_id TEXT NOT NULL,
                        level TEXT NOT NULL,
                        severity INTEGER NOT NULL,
                        message TEXT NOT NULL,
                        logged_at INTEGER NOT NULL,
                        metadata TEXT,
                        source TEXT,
                        received_at INTEGER NOT NULL
                    );
                    CREATE INDEX client_logs_by_severity ON client_logs(severity, id);
                    """)
        }
        migrator.registerMigration("v3-lean-sends") { db in
            // A message's two `message.created` events point at the message instead of each
            // holding its JSON (built again on read), and conversations are ordered by sorting
            // one owner's rows rather than through an index every send had to update.
            try db.execute(
                sql: """
                    ALTER TABLE events ADD COLUMN message_id INTEGER;
                    DROP INDEX conversations_by_recency;
                    """)
        }
        migrator.registerMigration("v4-heads-from-events") { db in
            // A stream's head is its newest event (`MAX(seq)` on the primary key): a send no
            // longer updates two users' rows to count it. Events are never deleted.
            try db.execute(sql: "ALTER TABLE users DROP COLUMN last_seq")
        }
        migrator.registerMigration("v5-blocks-reports") { db in
            // Every send reads blocks both ways through the unique (blocker, blocked) index;
            // `blocks_by_blocker` lists them newest first and `blocks_by_blocked` serves the
            // cascade when an account goes. Reports keep the names and the message as they were
            // (no foreign keys: a report outlives what it names).
            try db.execute(
                sql: """
                    CREATE TABLE blocks (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        blocker_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        blocked_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        UNIQUE (blocker_id, blocked_id)
                    );
                    CREATE INDEX blocks_by_blocker ON blocks(blocker_id, id);
                    CREATE INDEX blocks_by_blocked ON blocks(blocked_id);
                    CREATE TABLE reports (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        reporter_id INTEGER NOT NULL,
                        reporter_username TEXT NOT NULL,
                        reported_id INTEGER NOT NULL,
                        reported_username TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        note TEXT,
                        message_id INTEGER,
                        message_sender TEXT,
                        message_text TEXT,
                        message_media_ids TEXT NOT NULL DEFAULT '[]',
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX reports_by_time ON reports(created_at, id);
                    """)
        }
        migrator.registerMigration("v6-account-security") { db in
            // Sessions get a public id (never the token's digest), their last use and the user
            // agent that created them; a deleted account's sent messages become tombstones.
            try db.execute(
                sql: """
                    ALTER TABLE sessions ADD COLUMN public_id TEXT;
                    ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE sessions ADD COLUMN user_agent TEXT;
                    UPDATE sessions SET public_id = lower(hex(randomblob(12))), last_used_at = created_at;
                    CREATE UNIQUE INDEX sessions_by_public_id ON sessions(public_id);
                    ALTER TABLE messages ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE users ADD COLUMN deleted_at INTEGER;
                    """)
        }
        migrator.registerMigration("v8-media") { db in
            // Media rows name their bytes by sha256 (files under the media directory); a message
            // keeps its media as JSON (`media_json`, written once at the send) and, for access
            // checks and the sweep, one `message_media` row per attachment.
            try db.execute(
                sql: """
                    CREATE TABLE media (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        client_media_id TEXT NOT NULL,
                        content_type TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        sha256 TEXT NOT NULL,
                        filename TEXT,
                        created_at INTEGER NOT NULL,
                        UNIQUE (owner_id, client_media_id)
                    );
                    CREATE INDEX media_by_sha ON media(sha256);
                    CREATE INDEX media_by_time ON media(created_at);
                    CREATE TABLE message_media (
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                        PRIMARY KEY (message_id, position)
                    );
                    CREATE INDEX message_media_by_media ON message_media(media_id);
                    ALTER TABLE messages ADD COLUMN media_json TEXT NOT NULL DEFAULT '[]';
                    """)
        }
        SQLiteMessageActionsSchema.register(in: &migrator)
        migrator.registerMigration("v11-deleted-accounts-named") { db in
            // A deleted account's peers keep its conversation under `deleted-ID` (issue 36).
            try db.execute(
                sql: """
                    UPDATE users SET username = 'deleted-' || id, username_key = 'deleted-' || id, display_name = 'Deleted account'
                    WHERE deleted_at IS NOT NULL
                    """)
        }
        SQLiteModerationSchema.register(in: &migrator)
        SQLiteConversationMarksSchema.register(in: &migrator)
        SQLiteMessageRequestsSchema.register(in: &migrator)
        SQLiteGroupsSchema.register(in: &migrator)
        SQLiteMessageActionsSchema.registerLeanSearch(in: &migrator)
        SQLiteSearchIndexSchema.register(in: &migrator)
        SQLiteMessageTableSchema.register(in: &migrator)
        SQLiteBoundedGroupsSchema.register(in: &migrator)
        migrator.registerMigration(EventSQL.migrationName) { db in
            let id = "CASE WHEN json_valid(events.data) THEN CAST(json_extract(events.data, '$.id') AS INTEGER) END"
            try db.execute(sql: EventSQL.pointAtMessages(messageId: id))
        }
        migrator.registerMigration(PushSchemaSQL.name) { db in
            for statement in PushSchemaSQL.statements(idColumn: "INTEGER PRIMARY KEY", bytesType: "BLOB") {
                try db.execute(sql: statement)
            }
        }
        SQLiteSearchIndexSchema.registerIndexerMerges(in: &migrator)
        migrator.registerMigration(EncryptionSchemaSQL.name) { db in
            for statement in EncryptionSchemaSQL.statements(bytesType: "BLOB") { try db.execute(sql: statement) }
        }
        migrator.registerMigration(ReadMarkSchemaSQL.name) { db in
            for statement in ReadMarkSchemaSQL.statements { try db.execute(sql: statement) }
        }
        return migrator
    }
}
