/// SQL text that reads the same in SQLite and PostgreSQL.
enum StorageSQL {
    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`: id,
    /// client id, sender and recipient usernames, text, created-at milliseconds, read flag,
    /// tombstone flag, then (part 2) the id replied to, the edit time, the reactions
    /// (`ReactionsColumn`) and the media JSON (`MediaJSON`), then (issue 39) the take-down flag.
    static let messageColumns = """
        m.id, m.client_message_id, s.username, r.username, m.text, m.created_at, m.read, m.deleted,
        m.reply_to, m.edited_at, m.reactions, m.media_json, m.removed_by_operators
        FROM messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id
        """

    /// A conversation as its owner sees it, ending in `FROM messages m … JOIN conversations c …
    /// LEFT JOIN conversation_marks k …`: the last message's id (the list's cursor), the unread
    /// count, whether it is pinned and whether muted, then `peerColumns` (the peer as `u`),
    /// then `messageColumns` (its last message).
    static func conversationColumns(peerColumns: String) -> String {
        """
        c.last_message_id, c.unread_count, k.pin_order IS NOT NULL, COALESCE(k.muted, FALSE), \(peerColumns), \(messageColumns)
            JOIN conversations c ON m.id = c.last_message_id
            JOIN users u ON u.id = c.peer_id
            LEFT JOIN conversation_marks k ON k.owner_id = c.owner_id AND k.peer_id = c.peer_id
        """
    }

    /// Index of the peer's first column in `conversationColumns`.
    static let conversationPeerIndex = 4

    /// The statements of a mark change on the conversation of owner `$1` with peer `$2`
    /// (numbered parameters, which SQLite reads as well), by change; `cleanUp` removes a row
    /// that holds neither mark. A pin takes the owner's next `pin_order`.
    static let markStatements: [ConversationMarkChange: String] = [
        .pin: """
            INSERT INTO conversation_marks (owner_id, peer_id, pin_order)
            VALUES ($1, $2, (SELECT COALESCE(MAX(pin_order), 0) + 1 FROM conversation_marks WHERE owner_id = $1))
            ON CONFLICT (owner_id, peer_id) DO UPDATE SET pin_order = EXCLUDED.pin_order
            """,
        .unpin: "UPDATE conversation_marks SET pin_order = NULL WHERE owner_id = $1 AND peer_id = $2",
        .mute: """
            INSERT INTO conversation_marks (owner_id, peer_id, muted) VALUES ($1, $2, TRUE)
            ON CONFLICT (owner_id, peer_id) DO UPDATE SET muted = TRUE
            """,
        .unmute: "UPDATE conversation_marks SET muted = FALSE WHERE owner_id = $1 AND peer_id = $2",
    ]

    /// Removes the mark row of owner `$1` with peer `$2` when it holds neither mark.
    static let cleanUpMarks = "DELETE FROM conversation_marks WHERE owner_id = $1 AND peer_id = $2 AND pin_order IS NULL AND NOT muted"

    /// The owner `$1`'s marks on the conversation with peer `$2`: whether pinned, whether muted,
    /// and how many conversations the owner has pinned in all; no row when there is no such
    /// conversation.
    static let currentMarks = """
        SELECT k.pin_order IS NOT NULL, COALESCE(k.muted, FALSE),
            (SELECT COUNT(*) FROM conversation_marks WHERE owner_id = $1 AND pin_order IS NOT NULL)
        FROM conversations c
        LEFT JOIN conversation_marks k ON k.owner_id = c.owner_id AND k.peer_id = c.peer_id
        WHERE c.owner_id = $1 AND c.peer_id = $2
        """

    /// A report as operators see it, ending in `FROM reports rp …`: id, created-at
    /// milliseconds, reporter and reported usernames, whether the reported account is suspended
    /// now, reason, note, the reported message's id, sender, text and media ids as kept, then
    /// the resolution, its operator and its time (null while open), and the reported user's id.
    static let moderationReportColumns = """
        rp.id, rp.created_at, rp.reporter_username, rp.reported_username,
        EXISTS (SELECT 1 FROM users ru WHERE ru.id = rp.reported_id AND ru.suspended_at IS NOT NULL),
        rp.reason, rp.note, rp.message_id, rp.message_sender, rp.message_text, rp.message_media_ids,
        rp.resolution, rp.resolved_by, rp.resolved_at, rp.reported_id
        FROM reports rp
        """

    /// One row of `ServerFigures` counts: users (deleted ones left out), suspended users,
    /// messages, open reports, and the bytes of distinct media.
    static let serverFigures = """
        SELECT (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL),
            (SELECT COUNT(*) FROM users WHERE suspended_at IS NOT NULL AND deleted_at IS NULL),
            (SELECT COUNT(*) FROM messages),
            (SELECT COUNT(*) FROM reports WHERE resolved_at IS NULL),
            (SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM (SELECT MAX(size) AS size FROM media GROUP BY sha256) AS blobs)
        """
}
