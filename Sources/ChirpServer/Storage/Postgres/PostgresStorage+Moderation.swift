import ChirpModels
import PostgresNIO

/// A direct message's take-down on PostgreSQL (its tombstone patches the events' stored JSON).
extension PostgresStorage {
    /// Both people's rows are locked first, in id order, as sends and message actions lock them.
    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    {
        try await write { scope in
            guard
                let people = try await scope.row(
                    "SELECT sender_id, recipient_id FROM messages WHERE id = \(id) AND group_id IS NULL")
            else {
                return try await Self.takeDownGroupMessage(scope, id: id, by: actor, at: at, encoding: encoding)
            }
            let sender: Int64 = try people.value(0)
            let recipient: Int64 = try people.value(1)
            try await scope.lockUsers([sender, recipient])
            guard try await scope.execute("SELECT 1 FROM messages WHERE id = \(id) FOR UPDATE") > 0,
                let message = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(id)).first
            else { return nil }
            guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
            let takenDown = message.tombstone(byOperators: true)
            try await Self.storeTombstone(
                scope, id: id, sender: sender, recipient: recipient, byOperators: true,
                notice: try encoding.deleted(takenDown), at: at)
            try await Self.audit(
                scope, actor, .removeMessage, target: message.id, detail: "\(message.sender) to \(message.recipient)",
                at: at)
            return WriteOutcome(value: takenDown, created: true, appended: scope.appended)
        }
    }

    /// Appends one entry to the audit log, in the transaction of the action it records.
    static func audit(
        _ scope: PostgresScope, _ actor: OperatorActor, _ action: AuditEntry.Action, target: String,
        detail: String? = nil,
        at: Timestamp
    ) async throws {
        try await scope.execute(
            """
            INSERT INTO operator_actions (operator_id, operator_username, action, target, detail, created_at)
            VALUES (\(actor.userId), \(actor.username), \(action.rawValue), \(target), \(detail), \(at.millisecondsSince1970))
            """)
    }
}
