import ChirpModels
import PostgresNIO

extension PostgresStorage {
    /// Group commit: the send goes into the next batch of concurrent sends, written in one
    /// transaction (`sendBatch`), and returns after that commit.
    func sendMessage(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message> {
        try await sends.submit(PendingSend(new: new, decisions: decisions)) { [self] batch in await sendBatch(batch) }
    }

    /// Decodes the columns of `StorageSQL.recipientFactColumns` starting at `index`.
    static func recipientFacts(from row: PostgresRandomAccessRow, at index: Int) throws -> RecipientFacts {
        RecipientFacts(
            id: try row.value(index), username: try row.value(index + 1), followsSender: try row.value(index + 2),
            hasWrittenToSender: try row.value(index + 3), blockedSender: try row.value(index + 4),
            blockedBySender: try row.value(index + 5), takesRequests: try row.value(index + 6),
            request: RequestState(accepted: try row.value(index + 7, as: Bool?.self)),
            senderHasPendingRequest: try row.value(index + 8), encrypted: try row.value(index + 9))
    }

    func messages(
        viewer: Int64, peerKey: String, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]? {
        try await read { scope in
            guard let peerId = try await scope.userId(key: peerKey) else { return nil }
            let binds = Self.binds(min(viewer, peerId), max(viewer, peerId), after, before, limit)
            let rows =
                ascending
                ? try await scope.rows(PreparedQuery(MessagePageAscending.self, binds))
                : try await scope.rows(PreparedQuery(MessagePageDescending.self, binds))
            return try rows.map { try Self.message(from: $0, at: 0) }
        }
    }

    // MARK: helpers

    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`.
    static var messageColumns: String { StorageSQL.messageColumns }

    static func fetchMessages(_ scope: PostgresScope, where condition: String, _ binds: PostgresBindings) async throws
        -> [Message]
    {
        try await scope.rows(PostgresQuery(unsafeSQL: "SELECT \(messageColumns) WHERE \(condition)", binds: binds))
            .map { try message(from: $0, at: 0) }
    }

    /// Decodes the columns of `messageColumns` starting at `index`.
    static func message(from row: PostgresRandomAccessRow, at index: Int) throws -> Message {
        Message(
            id: String(try row.value(index, as: Int64.self)), clientMessageId: try row.value(index + 1),
            sender: try row.value(index + 2), recipient: try row.value(index + 3), text: try row.value(index + 4),
            createdAt: Timestamp(millisecondsSince1970: try row.value(index + 5)),
            readByRecipient: try row.value(index + 6),
            deleted: try row.value(index + 7),
            media: try row.value(index + 7, as: Bool.self)
                ? [] : MediaJSON.decode(try row.value(index + 11, as: String.self)),
            replyTo: try row.value(index + 8, as: Int64?.self).map { String($0) },
            reactions: ReactionsColumn.decode(try row.value(index + 10, as: String?.self)),
            editedAt: try row.value(index + 9, as: Int64?.self).map(Timestamp.init(millisecondsSince1970:)),
            removedByOperators: try row.value(index + 12),
            envelope: try EnvelopeColumn.decode(try row.value(index + 13, as: String?.self)))
    }
}

/// A page of a conversation, oldest first: the pair (`$1` < `$2`), ids between `$3` and `$4`,
/// at most `$5`.
private enum MessagePageAscending: PreparedSQL {
    static let sql =
        "SELECT \(StorageSQL.messageColumns) WHERE \(MessagePageDescending.condition) ORDER BY m.id ASC LIMIT $5"
}

/// A page of a conversation, newest first (parameters as `MessagePageAscending`).
private enum MessagePageDescending: PreparedSQL {
    static let condition = "m.user_lo = $1 AND m.user_hi = $2 AND m.id > $3 AND m.id < $4"
    static let sql = "SELECT \(StorageSQL.messageColumns) WHERE \(condition) ORDER BY m.id DESC LIMIT $5"
}
