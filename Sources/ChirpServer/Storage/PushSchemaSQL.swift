/// The migration `v25-push-notifications` (issue 54), the same statements on both databases
/// but for their id and byte columns:
/// - `push_keys`: the server's VAPID key (RFC 8292), made once per deployment, so every
///   instance sharing the database signs with it;
/// - `push_subscriptions`: a browser's Web Push subscription, at most 10 per account, tied to
///   the session that made it (ending the session ends it: logout, revocation, suspension and
///   account deletion all delete sessions);
/// - `push_deliveries`: the queue of pushes still to send, one per subscription and
///   conversation (`topic`: a newer message replaces an older one, as the push service's
///   `Topic` would), pointing at the message it announces; it survives a restart.
enum PushSchemaSQL {
    static let name = "v25-push-notifications"

    /// The statements, with `idColumn` a table's key and `bytesType` the sessions' token hash
    /// type (SQLite `BLOB`, PostgreSQL `BYTEA`).
    static func statements(idColumn: String, bytesType: String) -> [String] {
        [
            "CREATE TABLE push_keys (name TEXT PRIMARY KEY, private_key TEXT NOT NULL, created_at BIGINT NOT NULL)",
            """
            CREATE TABLE push_subscriptions (
                id \(idColumn),
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                session_hash \(bytesType) NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
                endpoint TEXT NOT NULL,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                preview BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (user_id, client_id)
            )
            """,
            "CREATE INDEX push_subscriptions_by_session ON push_subscriptions(session_hash)",
            """
            CREATE TABLE push_deliveries (
                id \(idColumn),
                subscription_id BIGINT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
                topic TEXT NOT NULL,
                message_id BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (subscription_id, topic)
            )
            """,
            "CREATE INDEX push_deliveries_due ON push_deliveries(next_attempt_at)",
        ]
    }
}
