import ChirpModels
import GRDB

/// A direct message's take-down on SQLite (its tombstone is written as SQLite's events keep it).
extension SQLiteStorage {
    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    {
        let writer = self.writer
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT sender_id, recipient_id FROM messages WHERE id = ? AND group_id IS NULL"),
                    arguments: [id]),
                let message = try Self.fetchMessage(db, where: "m.id = ?", [id])
            else { return try Self.takeDownGroupMessage(db, id: id, by: actor, at: at, encoding: encoding) }
            guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
            var marked = message
            marked.removedByOperators = true
            let takenDown = message.tombstone(byOperators: true)
            let appended = try Self.storeTombstone(
                db, writer: writer, of: marked, sender: row[0], recipient: row[1], notice: encoding.deleted(takenDown),
                at: at)
            try Self.audit(
                db, actor, .removeMessage, target: message.id, detail: "\(message.sender) to \(message.recipient)",
                at: at)
            return WriteOutcome(value: takenDown, created: true, appended: appended)
        }
    }

    /// Appends one entry to the audit log, in the transaction of the action it records.
    static func audit(
        _ db: Database, _ actor: OperatorActor, _ action: AuditEntry.Action, target: String, detail: String? = nil,
        at: Timestamp
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO operator_actions (operator_id, operator_username, action, target, detail, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [actor.userId, actor.username, action.rawValue, target, detail, at.millisecondsSince1970])
    }
}
