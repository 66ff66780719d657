/// The session lookup of every request, in SQL both engines read: a session by its token's
/// hash joined to its user, as `SessionInfo` is read from it (SQLite looks one up;
/// PostgreSQL gathers a batch's lookups into one statement over the same columns).
enum SessionSQL {
    /// The columns of a found session, over `tables`.
    static let columns = "s.user_id, u.username, s.expires_at, s.public_id, s.last_used_at"

    /// Sessions `s`, each joined to its user `u`.
    static let tables = "sessions s JOIN users u ON u.id = s.user_id"

    /// The session of a row of `columns`.
    static func session(from row: some StorageRow) throws -> SessionInfo {
        SessionInfo(
            userId: try row("user_id"), username: try row("username"), expiresAt: try row("expires_at"),
            publicId: try row("public_id"), lastUsedAt: try row("last_used_at"))
    }
}
