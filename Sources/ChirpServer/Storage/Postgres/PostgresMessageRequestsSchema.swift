/// The PostgreSQL migration of message requests, as SQLite's `v15-message-requests`, and the
/// send batch's functions again with the request facts checked under the locks and the
/// request rows written (`PostgresSendBatchSchema.requestMigrations`).
enum PostgresMessageRequestsSchema {
    static let migrations: [(name: String, sql: [String])] = [
        (
            "v15-message-requests",
            [
                "ALTER TABLE users ADD COLUMN takes_message_requests BOOLEAN NOT NULL DEFAULT FALSE",
                """
                CREATE TABLE message_requests (
                    recipient_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    sender_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    accepted BOOLEAN NOT NULL DEFAULT FALSE,
                    PRIMARY KEY (recipient_id, sender_id)
                )
                """,
                "CREATE INDEX message_requests_by_sender ON message_requests(sender_id)",
            ]
        )
    ]
}
