import ChirpPersistence

extension ClientDatabase {
    /// The local schema of message actions (issue 23): the message fields, the queued actions
    /// and early tombstones.
    static let actionMigrations: [SQLiteStore.Migration] = [
        .init(
            name: "v2-actions",
            sql: """
                ALTER TABLE messages ADD COLUMN replyTo TEXT;
                ALTER TABLE messages ADD COLUMN reactions TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE messages ADD COLUMN editedAt TEXT;
                ALTER TABLE messages ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX messages_by_server_id ON messages (serverId);
                CREATE TABLE pending_actions (
                    id TEXT PRIMARY KEY, "order" INTEGER NOT NULL, messageId TEXT NOT NULL, peer TEXT NOT NULL,
                    kind TEXT NOT NULL, value TEXT NOT NULL);
                CREATE INDEX pending_actions_by_order ON pending_actions ("order");
                CREATE TABLE early_tombstones (id TEXT PRIMARY KEY);
                """)
    ]

    /// Actions waiting to be sent, in the order they were queued.
    func pendingActions() async throws -> [PendingAction] {
        try await actions.fetch(RecordQuery().order(by: "order"))
    }
}
