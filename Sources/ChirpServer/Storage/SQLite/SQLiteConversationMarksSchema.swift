import GRDB

/// The schema of pinned and muted conversations (API.md part 3), as a SQLite migration of its
/// own. A separate table, not columns of `conversations`, so that sends (which write
/// `conversations`) do no more work than before.
enum SQLiteConversationMarksSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-conversation-marks") { db in
            // One row per marked conversation of an owner (keyed like `conversations`);
            // `pin_order` grows per owner, so the most recently pinned sorts first.
            try db.execute(
                sql: """
                    CREATE TABLE conversation_marks (
                        owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        peer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        pin_order INTEGER,
                        muted INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (owner_id, peer_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX conversation_marks_pinned ON conversation_marks(owner_id, pin_order) WHERE pin_order IS NOT NULL;
                    """)
        }
    }
}
