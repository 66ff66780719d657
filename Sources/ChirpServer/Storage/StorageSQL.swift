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
