import ChirpModels
import GRDB

extension SQLiteStorage {
    /// One write job: the recipient and the may-message facts (one statement), the decision,
    /// the insert (whose unique client id finds a retry without a lookup per send), both
    /// conversation rows (one upsert) and both events.
    func sendMessage(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message> {
        // Not indexed for search here: `SQLiteSearchIndexer` does it after.
        let indexer = searchIndexer
        return try await write { db in
            let sender = new.sender
            if sender.sessionConfirmation == .bySendWrite,
                try !Self.sessionIsLive(db, tokenHash: sender.tokenHash, userId: sender.id, at: new.createdAt)
            {
                throw decisions.sessionEnded()
            }
            let facts = try Self.recipientFacts(db, key: new.recipientKey, sender: sender.id)
            func earlier() throws -> Message? {
                try Self.fetchMessage(
                    db, where: "m.sender_id = ? AND m.client_message_id = ? AND m.group_id IS NULL",
                    [sender.id, new.clientMessageId])
            }
            let requestChange: RequestChange
            switch try decisions.decide(facts, for: new, earlier: earlier) {
            case .replay(let existing): return WriteOutcome(value: existing, created: false)
            case .insert(let change): requestChange = change
            }
            guard let facts else {
                throw StorageError.inconsistent("a send was allowed to a recipient that does not exist")
            }
            let recipient = facts.id
            try db.cachedStatement(
                sql: """
                    INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, reply_to, media_json, envelope)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sender_id, client_message_id) WHERE group_id IS NULL DO NOTHING
                    """
            ).execute(arguments: [
                sender.id, recipient, min(sender.id, recipient), max(sender.id, recipient),
                new.clientMessageId, new.text, new.createdAt.millisecondsSince1970, new.replyTo, new.mediaJSON,
                new.envelopeJSON,
            ])
            guard db.changesCount == 1 else {
                guard let existing = try earlier() else {
                    throw StorageError.inconsistent("a message insert conflicted with nothing")
                }
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            let messageId = db.lastInsertedRowID
            indexer?.noteStored()
            try Self.attachMedia(db, messageId: messageId, media: new.media)
            // Both sides' conversation rows in one statement. The unread count is read from the
            // owner's read mark (`StorageSQL.directUnread`): a new row's starts just before this
            // message for the recipient (it alone is unread, whatever a declined request left
            // in the pair) and at it for the sender.
            try db.cachedStatement(
                sql: """
                    INSERT INTO conversations (owner_id, peer_id, last_message_id, has_received, read_up_to)
                    VALUES (?1, ?2, ?3, 0, ?3), (?2, ?1, ?3, 1, ?3 - 1)
                    ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                        last_message_id = excluded.last_message_id,
                        has_received = max(has_received, excluded.has_received)
                    """
            ).execute(arguments: [sender.id, recipient, messageId])
            if let request = requestChange.row(sender: sender.id, recipient: recipient) {
                try db.cachedStatement(sql: StorageSQL.writeRequest).execute(arguments: [
                    request.recipient, request.sender, request.accepted,
                ])
            }
            let message = Message(
                id: String(messageId), clientMessageId: new.clientMessageId, sender: sender.username,
                recipient: facts.username,
                text: new.text, createdAt: new.createdAt, readByRecipient: false, media: new.media,
                replyTo: new.replyTo.map { String($0) }, envelope: new.envelope)
            let json = decisions.encode(message)
            let appended = try Self.appendEvents(
                db, userIds: [sender.id, recipient], type: EventType.messageCreated, json: json, at: new.createdAt,
                messageId: messageId)
            return WriteOutcome(value: message, created: true, appended: appended, json: json)
        }
    }

    // MARK: helpers

    /// The facts statement, made once: made on every send it cost about 13,000 instructions
    /// (`scripts/count-send-instructions`).
    private static let recipientFactsSQL =
        "SELECT \(StorageSQL.recipientFactColumns(sender: "?2")) FROM users u WHERE u.username_key = ?1"

    /// A user by username key, with the facts a send from `sender` to them decides on
    /// (`StorageSQL.recipientFactColumns`), in one statement read by position (`ColumnCursor`).
    static func recipientFacts(_ db: Database, key: String, sender: Int64) throws -> RecipientFacts? {
        try ColumnCursor.only(db.cachedStatement(sql: recipientFactsSQL), arguments: [key, sender]) { row in
            RecipientFacts(
                id: row.int64(0), username: row.text(1), followsSender: row.bool(2), hasWrittenToSender: row.bool(3),
                blockedSender: row.bool(4), blockedBySender: row.bool(5), takesRequests: row.bool(6),
                request: RequestState(accepted: row.optionalBool(7)), senderHasPendingRequest: row.bool(8),
                encrypted: row.bool(9))
        }
    }

    static func fetchMessage(_ db: Database, where condition: String, _ arguments: StatementArguments) throws
        -> Message?
    {
        try fetchMessages(db, where: condition + " LIMIT 1", arguments).first
    }

    static func fetchMessages(_ db: Database, where condition: String, _ arguments: StatementArguments) throws
        -> [Message]
    {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(StorageSQL.messageColumns) WHERE \(condition)"), arguments: arguments
        ).map(MessageColumns.message(from:))
    }
}
