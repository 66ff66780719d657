/// The PostgreSQL migration of pinned and muted conversations, as SQLite's
/// `v14-conversation-marks`.
enum PostgresConversationMarksSchema {
    static let migrations: [(name: String, sql: [String])] = [
        (
            "v14-conversation-marks",
            [
                """
                CREATE TABLE conversation_marks (
                    owner_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    peer_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    pin_order BIGINT,
                    muted BOOLEAN NOT NULL DEFAULT FALSE,
                    PRIMARY KEY (owner_id, peer_id)
                )
                """,
                "CREATE INDEX conversation_marks_pinned ON conversation_marks(owner_id, pin_order) WHERE pin_order IS NOT NULL",
            ]
        )
    ]
}
