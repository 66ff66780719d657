import ChirpModels
import GRDB

extension SQLiteStorage {
    func replyTarget(_ id: Int64, sender: Int64, recipientKey: String) async throws -> ReplyTargetCheck {
        try await read { db in
            guard let recipient = try Self.userId(db, key: recipientKey) else { return .noSuchRecipient }
            let found =
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM messages WHERE id = ? AND user_lo = ? AND user_hi = ?"),
                    arguments: [id, min(sender, recipient), max(sender, recipient)]) == true
            return found ? .valid : .notInConversation
        }
    }

    func replyTarget(_ id: Int64, viewer: Int64, groupId: Int64) async throws -> ReplyTargetCheck {
        try await read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: Self.sharedSQL(GroupSQL.visibleMessageExists)),
                arguments: [groupId, viewer, id]) == true
                ? .valid : .notInConversation
        }
    }

    func changeMessage(
        _ id: Int64, viewer: Int64, peerKey: String, at: Timestamp, encoding: any MessageChangeEncoding,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome {
        // Index changes wait for the end of the batch (`WriteCoalescer.atBatchEnd`): one FTS5
        // segment for the batch's edits and unsends. A message above the index's mark is not
        // in it yet, and is indexed later as it is then.
        let writer = self.writer
        return try await write { db in
            guard let peer = try Self.userId(db, key: peerKey) else { return .noSuchPeer }
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT m.sender_id, m.recipient_id, \(BlockSQL.between("?2", "?3"))
                            FROM messages m WHERE m.id = ?1 AND m.user_lo = ?4 AND m.user_hi = ?5
                            """),
                    arguments: [id, viewer, peer, min(viewer, peer), max(viewer, peer)]),
                let message = try Self.fetchMessage(db, where: "m.id = ?", [id])
            else { return .noSuchMessage }
            let sender: Int64 = row[0]
            let recipient: Int64 = row[1]
            let facts = MessageFacts(
                message: message, viewerIsSender: sender == viewer, viewerBlockedPeer: row[2], peerBlockedViewer: row[3]
            )
            switch try change(facts) {
            case .none:
                return .unchanged(message)
            case .update(let updated):
                try db.cachedStatement(
                    sql: "UPDATE messages SET text = ?, edited_at = ?, reactions = ?, envelope = ? WHERE id = ?"
                )
                .execute(
                    arguments: [
                        updated.text, updated.editedAt?.millisecondsSince1970,
                        encoding.reactionsColumn(updated.reactions), try EnvelopeColumn.encode(updated.envelope),
                        id,
                    ])
                if updated.text != message.text, id <= (try SQLiteMessageSearch.indexedThrough(db)) {
                    let (before, after) = (message.text, updated.text)
                    writer.atBatchEnd { db in
                        try SQLiteMessageSearch.remove(
                            db, messageId: id, text: before, sender: sender, recipient: recipient)
                        try SQLiteMessageSearch.add(
                            db, messageId: id, text: after, sender: sender, recipient: recipient)
                    }
                }
                let stored = try Self.fetchMessage(db, where: "m.id = ?", [id]) ?? updated
                let appended = try Self.appendEvents(
                    db, userIds: [sender, recipient], type: EventType.messageUpdated, json: encoding.updated(stored),
                    at: at, messageId: id)
                return .changed(stored, appended)
            case .unsend:
                let tombstone = message.tombstone()
                let appended = try Self.storeTombstone(
                    db, writer: writer, of: message, sender: sender, recipient: recipient,
                    notice: try encoding.deleted(tombstone), at: at)
                return .changed(tombstone, appended)
            }
        }
    }

    /// Makes stored message `message` a tombstone for both people (`removedByOperators` when
    /// the message says so: a take-down): the row loses its text and reactions, the search
    /// index its words, and both streams get `message.deleted` with `notice` (their events
    /// are all read from the row).
    static func storeTombstone(
        _ db: Database, writer: WriteCoalescer, of message: Message, sender: Int64, recipient: Int64, notice: String,
        at: Timestamp
    ) throws -> [AppendedEvent] {
        guard let id = Int64(message.id) else { throw StorageError.inconsistent("message id \(message.id)") }
        try db.cachedStatement(
            sql:
                "UPDATE messages SET text = '', envelope = NULL, deleted = 1, reactions = NULL, removed_by_operators = ? WHERE id = ?"
        )
        .execute(arguments: [message.removedByOperators, id])
        let before = message.text
        if !message.deleted, id <= (try SQLiteMessageSearch.indexedThrough(db)) {
            writer.atBatchEnd { db in
                try SQLiteMessageSearch.remove(db, messageId: id, text: before, sender: sender, recipient: recipient)
            }
        }
        return try appendEvents(
            db, userIds: [sender, recipient], type: EventType.messageDeleted, json: notice, at: at, messageId: id)
    }
}
