/// The event retention's statements (`EventStore.pruneEvents`), the same on both databases:
/// a stream keeps the events created at or after the cutoff, and always its newest (its head,
/// from which SQLite numbers the next event). Seqs grow with time in a stream, so the walk to
/// the first kept event reads only the events it then deletes.
enum EventPruningSQL {
    /// Up to `$2` user ids above `$1`, in order.
    static let users = "SELECT id FROM users WHERE id > $1 ORDER BY id LIMIT $2"

    /// Deletes user `$1`'s events created before `$2`, all but the stream's newest.
    static let pruneStream = """
        DELETE FROM events WHERE user_id = $1 AND seq < COALESCE(
            (SELECT k.seq FROM events k WHERE k.user_id = $1 AND k.created_at >= $2 ORDER BY k.seq LIMIT 1),
            (SELECT MAX(h.seq) FROM events h WHERE h.user_id = $1))
        """

    /// Deletes up to `$1` shared payloads (`event_payloads`) no event names any more.
    static let orphanPayloads = """
        DELETE FROM event_payloads WHERE id IN (
            SELECT p.id FROM event_payloads p WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.payload_id = p.id) LIMIT $1)
        """
}
