import GRDB

/// The schema of message requests (API.md part 3), as a SQLite migration of its own.
enum SQLiteMessageRequestsSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-message-requests") { db in
            // The recipient's setting is a column of their row, which a send's facts read
            // anyway (1: `everyone`). A request is one row per (recipient, sender) of two users
            // who exist, made by a send: pending, then accepted (by an accept or a reply);
            // declining removes it.
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN takes_message_requests INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE message_requests (
                        recipient_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        accepted INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (recipient_id, sender_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX message_requests_by_sender ON message_requests(sender_id);
                    """)
        }
    }
}
