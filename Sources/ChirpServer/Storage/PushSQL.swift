/// The Web Push statements written once for both databases (`StorageEngine+Push`).
enum PushSQL {
    static let subscriptionColumns = """
        s.id AS s_id, s.client_id AS s_client_id, s.endpoint AS s_endpoint, s.p256dh AS s_p256dh, s.auth AS s_auth,
            s.preview AS s_preview, s.created_at AS s_created_at
        """

    /// Queues the pushes of direct messages `$1` (`isAny`, an id list) at `$2`: one per
    /// subscription of the recipient and conversation, unless the recipient muted the
    /// conversation or blocked the sender.
    static func queueDirect(_ dialect: SQLDialect) -> String {
        """
        INSERT INTO push_deliveries (subscription_id, topic, message_id, attempts, next_attempt_at, created_at)
        SELECT s.id, 'u' || CAST(m.sender_id AS TEXT), MAX(m.id), 0, $2, $2
        FROM messages m JOIN push_subscriptions s ON s.user_id = m.recipient_id
        WHERE \(dialect.isAny("m.id", of: "$1")) AND m.group_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM conversation_marks k WHERE k.owner_id = m.recipient_id AND k.peer_id = m.sender_id AND k.muted)
            AND NOT \(BlockSQL.blocked("m.sender_id", by: "m.recipient_id"))
        GROUP BY s.id, m.sender_id
        \(onConflict)
        """
    }

    /// The same for group messages `$1`: every current member but the sender (a pending
    /// request too), unless they muted the group or blocked the sender.
    static func queueGroup(_ dialect: SQLDialect) -> String {
        """
        INSERT INTO push_deliveries (subscription_id, topic, message_id, attempts, next_attempt_at, created_at)
        SELECT s.id, 'g' || CAST(m.group_id AS TEXT), MAX(m.id), 0, $2, $2
        FROM messages m
        JOIN group_members gm ON gm.group_id = m.group_id AND gm.removed_at IS NULL AND gm.user_id <> m.sender_id
            AND NOT gm.muted
        JOIN push_subscriptions s ON s.user_id = gm.user_id
        WHERE \(dialect.isAny("m.id", of: "$1")) AND m.group_id IS NOT NULL
            AND NOT \(BlockSQL.blocked("m.sender_id", by: "gm.user_id"))
        GROUP BY s.id, m.group_id
        \(onConflict)
        """
    }

    /// A newer message of the conversation takes the queued one's place, tried afresh.
    private static let onConflict = """
        ON CONFLICT (subscription_id, topic) DO UPDATE SET message_id = excluded.message_id, attempts = 0,
            next_attempt_at = excluded.next_attempt_at, created_at = excluded.created_at
        """

    /// Claimed pushes `$1` (`isAny`) with their subscriptions and messages as the recipients
    /// see them now: read (`m_seen`), muted or out of the group (`m_muted`).
    static func jobs(_ dialect: SQLDialect) -> String {
        """
        SELECT d.id AS d_id, d.attempts AS d_attempts, d.created_at AS d_created_at, \(subscriptionColumns),
            m.id AS m_id, m.text AS m_text, m.envelope IS NOT NULL AS m_encrypted, m.deleted AS m_deleted,
            m.group_id AS m_group, su.username AS m_sender,
            CASE WHEN m.group_id IS NULL THEN m.read
                ELSE EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = m.group_id AND gm.user_id = s.user_id
                    AND gm.read_up_to >= m.id) END AS m_seen,
            CASE WHEN m.group_id IS NULL
                THEN EXISTS (SELECT 1 FROM conversation_marks k WHERE k.owner_id = s.user_id AND k.peer_id = m.sender_id AND k.muted)
                ELSE NOT EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = m.group_id AND gm.user_id = s.user_id
                    AND gm.removed_at IS NULL AND NOT gm.muted) END AS m_muted
        FROM push_deliveries d
        JOIN push_subscriptions s ON s.id = d.subscription_id
        JOIN messages m ON m.id = d.message_id
        JOIN users su ON su.id = m.sender_id
        WHERE \(dialect.isAny("d.id", of: "$1"))
        ORDER BY d.next_attempt_at
        """
    }
}
