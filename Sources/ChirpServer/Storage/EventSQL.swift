import ChirpModels

/// The events read, written once for both databases. An event about a message points at the
/// message's row (`StoredEventData.message`) and comes back with the message's columns as
/// `MessageColumns` reads them, seen by the stream's owner; any other event with its JSON,
/// stored in the row or once for many (`event_payloads`).
enum EventSQL {
    /// The stream of user `owner` (SQL: a parameter or a column) after seq `$2`, at most `$3`
    /// events, oldest first: `e_seq`, `e_type`, `e_created_at`, `e_data` (the JSON), `e_message`
    /// (the message pointed at) and the message's `m_…` columns, NULL for other events.
    static func stream(of owner: String) -> String {
        """
        SELECT ev.seq AS e_seq, ev.type AS e_type, ev.created_at AS e_created_at,
            COALESCE(p.data, ev.data) AS e_data, ev.message_id AS e_message,
            m.id AS m_id, m.client_message_id AS m_client_id, s.username AS m_sender, ru.username AS m_recipient,
            m.text AS m_text, m.created_at AS m_created_at, m.read AS m_read, m.deleted AS m_deleted,
            m.reply_to AS m_reply_to, m.edited_at AS m_edited_at, m.reactions AS m_reactions, m.media_json AS m_media,
            m.removed_by_operators AS m_removed, m.envelope AS m_envelope, m.group_id AS m_group,
            CASE WHEN m.group_id IS NULL THEN 0 ELSE \(GroupSQL.readCount) END AS m_read_count,
            CASE WHEN m.group_id IS NULL THEN FALSE ELSE \(BlockSQL.blocked("m.sender_id", by: "ev.user_id")) END
                AS m_from_blocked
        FROM events ev
        LEFT JOIN event_payloads p ON p.id = ev.payload_id
        LEFT JOIN messages m ON m.id = ev.message_id
        LEFT JOIN users s ON s.id = m.sender_id
        LEFT JOIN users ru ON ru.id = m.recipient_id
        WHERE ev.user_id = \(owner) AND ev.seq > $2 ORDER BY ev.seq LIMIT $3
        """
    }

    /// Converts the message events earlier versions stored as JSON copies into pointers at
    /// their messages (`StoredEventData.message`), `messageId` being the SQL of the id in an
    /// event's `data`: the migration of `v24-message-events-point-at-rows` on both databases.
    /// Events whose message is missing keep their JSON.
    static func pointAtMessages(messageId: String) -> String {
        """
        UPDATE events SET message_id = (SELECT m.id FROM messages m WHERE m.id = \(messageId)), data = ''
        WHERE type IN ('\(EventType.messageCreated)', '\(EventType.messageUpdated)', '\(EventType.messageDeleted)')
            AND message_id IS NULL AND payload_id IS NULL AND data <> ''
            AND EXISTS (SELECT 1 FROM messages m WHERE m.id = \(messageId))
        """
    }

    /// The name of the migration that makes message events pointers.
    static let migrationName = "v24-message-events-point-at-rows"
}
