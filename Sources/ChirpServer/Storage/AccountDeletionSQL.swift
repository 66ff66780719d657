/// Account deletion's rows, in SQL both storages run inside the deletion's transaction
/// (SQLite reads `$N` as `?N`). What each database keeps apart: the message tombstones (the
/// search index is stored differently), the stored events' rewrite (JSON functions differ), and
/// the order of locks (PostgreSQL's).
enum AccountDeletionSQL {
    /// Who is told `user.deleted` about user `$1` directly: its direct peers both ways and its
    /// followers (the groups' members come from `GroupSQL.groupPeers`). It may list the user.
    static let directAudience = """
        SELECT peer_id FROM conversations WHERE owner_id = $1
        UNION SELECT owner_id FROM conversations WHERE peer_id = $1
        UNION SELECT follower_id FROM follows WHERE followee_id = $1
        """

    /// User `$1`'s own rows go (tweets, conversations, pins and mutes, sessions, events; others'
    /// marks on its conversations stay), its blocks both ways go (reports stay: they are the
    /// operators' record, with their own copies of names and text) and its media go with the
    /// next sweep.
    static let ownRows = [
        "DELETE FROM tweets WHERE author_id = $1",
        "DELETE FROM blocks WHERE blocker_id = $1 OR blocked_id = $1",
        "UPDATE media SET created_at = 0 WHERE owner_id = $1",
        "DELETE FROM conversations WHERE owner_id = $1",
        "DELETE FROM conversation_marks WHERE owner_id = $1",
        "DELETE FROM sessions WHERE user_id = $1",
        "DELETE FROM events WHERE user_id = $1",
    ]

    /// User `$1`'s row stays, as `deleted-ID` with no password and no counts, deleted at `$2`.
    static let anonymize = """
        UPDATE users SET username = 'deleted-' || CAST(id AS TEXT), username_key = 'deleted-' || CAST(id AS TEXT),
            password_hash = '', display_name = 'Deleted account', followers_count = 0, following_count = 0, deleted_at = $2
        WHERE id = $1
        """
}
