import ChirpModels

/// A direct conversation as its owner sees it, read by the names `StorageSQL.conversationColumns`
/// gives (`last_message_id`, `unread`, `pinned`, `muted`, `request`, the peer as `u_…`, the
/// last message as `m_…`).
enum ConversationColumns {
    static func conversation(from row: some StorageRow) throws -> Listed<Conversation> {
        Listed(
            cursor: try row("last_message_id"),
            item: Conversation(
                peer: try UserColumns.user(from: row, "u"), lastMessage: try MessageColumns.message(from: row),
                unreadCount: try row("unread"), request: try row("request"), pinned: try row("pinned"),
                muted: try row("muted"), encrypted: try row("encrypted")))
    }
}

extension StorageScope {
    /// The owner's (`$1`) direct conversations matching `condition` (over `c`, `k`, `u` and
    /// `m`; `values` bound from `$2`), each with its list cursor.
    func conversations(owner: Int64, where condition: String, _ values: any SQLBindable...) async throws -> [Listed<
        Conversation
    >] {
        try await query(
            "SELECT \(StorageSQL.conversationColumns(peerColumns: UserColumns.select("u", viewer: "$1"))) WHERE c.owner_id = $1 AND \(condition)",
            [owner.sqlValue] + values.map(\.sqlValue)
        ).map(ConversationColumns.conversation(from:))
    }
}
