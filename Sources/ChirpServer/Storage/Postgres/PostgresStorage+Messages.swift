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

    // MARK: helpers

    static func fetchMessages(_ scope: PostgresScope, where condition: String, _ binds: PostgresBindings) async throws
        -> [Message]
    {
        try await scope.rows(
            PostgresQuery(unsafeSQL: "SELECT \(StorageSQL.messageColumns) WHERE \(condition)", binds: binds)
        )
        .map(MessageColumns.message(from:))
    }
}
