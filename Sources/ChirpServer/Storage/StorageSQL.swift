/// SQL text that reads the same in SQLite and PostgreSQL.
enum StorageSQL {
    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`: id,
    /// client id, sender and recipient usernames, text, created-at milliseconds, read flag,
    /// tombstone flag, then (part 2) the id replied to, the edit time, the reactions
    /// (`ReactionsColumn`) and the media JSON (`MediaJSON`).
    static let messageColumns = """
        m.id, m.client_message_id, s.username, r.username, m.text, m.created_at, m.read, m.deleted,
        m.reply_to, m.edited_at, m.reactions, m.media_json
        FROM messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id
        """
}
