import ChirpModels

/// The direct messages' retry lookup, recipient facts, pages and read marks, written once for both engines
/// (the send is each engine's: SQLite's group commit, PostgreSQL's batch function).
extension StorageEngine {
    func message(sender: Int64, clientMessageId: String) async throws -> Message? {
        try await reading { scope in
            try await scope.directMessages(
                where: "m.sender_id = $1 AND m.client_message_id = $2 AND m.group_id IS NULL LIMIT 1", sender,
                clientMessageId
            ).first
        }
    }

    func messages(
        viewer: Int64, peerKey: String, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]? {
        try await reading { scope in
            guard let peerId = try await scope.userId(key: peerKey) else { return nil }
            let values: [any SQLBindable] = [min(viewer, peerId), max(viewer, peerId), after, before, Int64(limit)]
            let rows =
                ascending
                ? try await scope.query(MessagePageAscending.self, values.map(\.sqlValue))
                : try await scope.query(MessagePageDescending.self, values.map(\.sqlValue))
            return try rows.map(MessageColumns.message(from:))
        }
    }

    func recipientFacts(sender: Int64, recipientKey: String) async throws -> RecipientFacts? {
        try await reading { scope in try await scope.recipientFacts(key: recipientKey, sender: sender) }
    }

    /// Marks the peer's messages up to `upTo` read, as `receipt` (the service's rules) answers
    /// for the peer's username and whether the reader's request from them is pending.
    func markRead(
        reader: Int64, peerKey: String, upTo: Int64, at: Timestamp,
        receipt: @escaping @Sendable (_ peer: String, _ pendingRequest: Bool) throws -> String?
    ) async throws -> MarkReadOutcome {
        try await writing { scope in
            guard let peerId = try await scope.userId(key: peerKey) else { return .noSuchPeer }
            let lo = min(reader, peerId)
            let hi = max(reader, peerId)
            try await scope.lockUsers([reader, peerId])
            guard
                try await scope.queryRow(
                    "SELECT 1 AS found FROM messages WHERE id = $1 AND user_lo = $2 AND user_hi = $3", upTo, lo, hi)
                    != nil
            else { return .noSuchMessage }
            guard let peer = try await scope.queryRow(StorageSQL.readReceiptFacts, reader, peerId) else {
                throw StorageError.inconsistent("user \(peerId) is missing")
            }
            try await scope.run(StorageSQL.moveReadMark, reader, peerId, upTo)
            guard let json = try receipt(try peer("username"), try peer("pending_request")) else { return .unchanged }
            let changed = try await scope.run(
                "UPDATE messages SET read = TRUE WHERE user_lo = $1 AND user_hi = $2 AND sender_id = $3 AND id <= $4 AND NOT read",
                lo, hi, peerId, upTo)
            guard changed > 0 else { return .unchanged }
            return .marked([
                try await scope.appendEvent(userId: peerId, type: EventType.messageRead, json: json, at: at)
            ])
        }
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
