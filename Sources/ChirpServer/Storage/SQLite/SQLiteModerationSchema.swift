import GRDB

/// The schema of moderation (issue 39), as SQLite migrations of its own: operators and
/// suspensions on `users`, take-downs on `messages`, resolutions on `reports`, and the audit
/// log of operator actions.
enum SQLiteModerationSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-moderation") { db in
            // Open reports are listed through a partial index; the audit log is written only by
            // operators (never keyed by what a client sends) and read newest first by its id.
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN operator INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE users ADD COLUMN suspended_at INTEGER;
                    ALTER TABLE messages ADD COLUMN removed_by_operators INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE reports ADD COLUMN resolved_at INTEGER;
                    ALTER TABLE reports ADD COLUMN resolved_by TEXT;
                    ALTER TABLE reports ADD COLUMN resolution TEXT;
                    CREATE INDEX reports_open ON reports(id) WHERE resolved_at IS NULL;
                    CREATE TABLE operator_actions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operator_id INTEGER,
                        operator_username TEXT,
                        action TEXT NOT NULL,
                        target TEXT NOT NULL,
                        detail TEXT,
                        created_at INTEGER NOT NULL
                    );
                    """)
        }
    }
}
