import ChirpModels

/// Reads a message back by the column names `StorageSQL.messageColumns` (direct) and
/// `GroupSQL.messageColumns` (group) give it (`m_id`, `m_text`, …).
enum MessageColumns {
    /// The message of a row of either list of columns: a row with `m_group` is a group's.
    static func message(from row: some StorageRow) throws -> Message {
        let deleted: Bool = try row("m_deleted")
        let group: Int64? = try row.has("m_group") ? try row("m_group") : nil
        return Message(
            id: String(try row("m_id", as: Int64.self)), clientMessageId: try row("m_client_id"),
            sender: try row("m_sender"),
            recipient: group == nil ? try row("m_recipient") : "", text: try row("m_text"),
            createdAt: try row("m_created_at"),
            readByRecipient: group == nil ? try row("m_read") : false, deleted: deleted,
            media: deleted ? [] : MediaJSON.decode(try row("m_media", as: String?.self)),
            replyTo: try row("m_reply_to", as: Int64?.self).map { String($0) },
            reactions: ReactionsColumn.decode(try row("m_reactions", as: String?.self)),
            editedAt: try row("m_edited_at", as: Timestamp?.self), removedByOperators: try row("m_removed"),
            group: group.map { String($0) }, readCount: group == nil ? 0 : try row("m_read_count", as: Int.self),
            fromBlocked: group == nil ? false : try row("m_from_blocked", as: Bool.self),
            envelope: try EnvelopeColumn.decode(try row("m_envelope", as: String?.self)))
    }
}

extension StorageScope {
    /// The direct messages matching `condition` (over `m`, with `values` bound from `$1`).
    func directMessages(where condition: String, _ values: any SQLBindable...) async throws -> [Message] {
        try await query("SELECT \(StorageSQL.messageColumns) WHERE \(condition)", values.map(\.sqlValue))
            .map(MessageColumns.message(from:))
    }
}
