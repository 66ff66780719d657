import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func isOperator(userId: Int64) async throws -> Bool {
        try await read { scope in
            try await scope.value("SELECT operator FROM users WHERE id = \(userId)", as: Bool.self) ?? false
        }
    }

    func setOperator(usernameKey: String, _ isOperator: Bool, by actor: OperatorActor, at: Timestamp) async throws -> Bool? {
        try await write { scope in
            guard let (id, username) = try await Self.userIdAndName(scope, key: usernameKey) else { return nil }
            let changed = try await scope.execute(
                "UPDATE users SET operator = \(isOperator) WHERE id = \(id) AND operator <> \(isOperator) RETURNING 1") > 0
            if changed { try await Self.audit(scope, actor, isOperator ? .grant : .revoke, target: username, at: at) }
            return changed
        }
    }

    /// The user's row is updated first: a login's session insert on any instance waits for it
    /// (`createSession` reads the row `FOR SHARE`), so the delete here sees every session.
    func setSuspended(_ account: SuspensionTarget, _ suspended: Bool, by actor: OperatorActor, at: Timestamp) async throws
        -> SuspensionOutcome?
    {
        try await write { scope in
            let found: (Int64, String)?
            switch account {
            case .usernameKey(let key): found = try await Self.userIdAndName(scope, key: key)
            case .userId(let id): found = try await scope.value("SELECT username FROM users WHERE id = \(id)", as: String.self).map { (id, $0) }
            }
            guard let (id, username) = found else { return nil }
            let changed: Bool
            if suspended {
                changed = try await scope.execute("""
                    UPDATE users SET suspended_at = \(at.millisecondsSince1970) WHERE id = \(id) AND suspended_at IS NULL RETURNING 1
                    """) > 0
                if changed { try await scope.execute("DELETE FROM sessions WHERE user_id = \(id)") }
            } else {
                changed = try await scope.execute(
                    "UPDATE users SET suspended_at = NULL WHERE id = \(id) AND suspended_at IS NOT NULL RETURNING 1") > 0
            }
            if changed { try await Self.audit(scope, actor, suspended ? .suspend : .unsuspend, target: username, at: at) }
            return SuspensionOutcome(userId: id, changed: changed)
        }
    }

    /// Both people's rows are locked first, in id order, as sends and message actions lock them.
    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    {
        try await write { scope in
            guard let people = try await scope.row("SELECT sender_id, recipient_id FROM messages WHERE id = \(id) AND group_id IS NULL") else {
                return try await Self.takeDownGroupMessage(scope, id: id, by: actor, at: at, encoding: encoding)
            }
            let sender: Int64 = try people.value(0), recipient: Int64 = try people.value(1)
            try await scope.lockUsers([sender, recipient])
            guard try await scope.execute("SELECT 1 FROM messages WHERE id = \(id) FOR UPDATE") > 0,
                let message = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(id)).first
            else { return nil }
            guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
            let takenDown = message.tombstone(byOperators: true)
            try await Self.storeTombstone(
                scope, id: id, sender: sender, recipient: recipient, byOperators: true, notice: try encoding.deleted(takenDown), at: at)
            try await Self.audit(scope, actor, .removeMessage, target: message.id, detail: "\(message.sender) to \(message.recipient)", at: at)
            return WriteOutcome(value: takenDown, created: true, appended: scope.appended)
        }
    }

    func moderationReports(resolved: Bool, before: Int64, limit: Int) async throws -> [Listed<ModerationReport>] {
        try await read { scope in
            try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT \(StorageSQL.moderationReportColumns)
                    WHERE rp.resolved_at IS \(resolved ? "NOT NULL" : "NULL") AND rp.id < $1 ORDER BY rp.id DESC LIMIT $2
                    """,
                binds: Self.binds(before, limit))
            ).map { Listed(cursor: try $0.value(0, as: Int64.self), item: try Self.moderationReport(from: $0)) }
        }
    }

    func moderationReport(id: Int64) async throws -> FiledReport? {
        try await read { scope in try await Self.fetchModerationReport(scope, id: id) }
    }

    func resolveReport(id: Int64, action: ModerationAction, by actor: OperatorActor, at: Timestamp) async throws
        -> WriteOutcome<ModerationReport>?
    {
        try await write { scope in
            let changed = try await scope.execute("""
                UPDATE reports SET resolved_at = \(at.millisecondsSince1970), resolved_by = \(actor.username),
                    resolution = \(action.rawValue)
                WHERE id = \(id) AND resolved_at IS NULL RETURNING 1
                """) > 0
            guard let report = try await Self.fetchModerationReport(scope, id: id)?.report else { return nil }
            if changed { try await Self.audit(scope, actor, .resolveReport, target: report.id, detail: action.rawValue, at: at) }
            return WriteOutcome(value: report, created: changed)
        }
    }

    func auditLog(before: Int64, limit: Int) async throws -> [Listed<AuditEntry>] {
        try await read { scope in
            try await scope.rows("""
                SELECT id, operator_username, action, target, detail, created_at FROM operator_actions
                WHERE id < \(before) ORDER BY id DESC LIMIT \(limit)
                """
            ).map { row in
                let id: Int64 = try row.value(0)
                return Listed(cursor: id, item: AuditEntry(
                    id: String(id), operator: try row.value(1), action: try row.value(2), target: try row.value(3),
                    detail: try row.value(4), createdAt: Timestamp(millisecondsSince1970: try row.value(5))))
            }
        }
    }

    func serverFigures() async throws -> ServerFigures {
        try await read { scope in
            guard let row = try await scope.row(PostgresQuery(unsafeSQL: StorageSQL.serverFigures)),
                let bytes = try await scope.value("SELECT pg_database_size(current_database())", as: Int64.self)
            else { throw StorageError.inconsistent("the figures query returned no row") }
            return ServerFigures(
                users: Int(try row.value(0, as: Int64.self)), suspendedUsers: Int(try row.value(1, as: Int64.self)),
                messages: Int(try row.value(2, as: Int64.self)), openReports: Int(try row.value(3, as: Int64.self)),
                storageBytes: Int(bytes), mediaBytes: Int(try row.value(4, as: Int64.self)))
        }
    }

    private static func fetchModerationReport(_ scope: PostgresScope, id: Int64) async throws -> FiledReport? {
        try await scope.row(PostgresQuery(
            unsafeSQL: "SELECT \(StorageSQL.moderationReportColumns) WHERE rp.id = $1", binds: binds(id))
        ).map { FiledReport(report: try moderationReport(from: $0), reportedUserId: try $0.value(14)) }
    }

    /// Decodes `StorageSQL.moderationReportColumns`.
    private static func moderationReport(from row: PostgresRandomAccessRow) throws -> ModerationReport {
        let id: Int64 = try row.value(0)
        let messageId = try row.value(7, as: Int64?.self)
        let mediaIds = ReportRecord.decodeMediaIds(try row.value(10, as: String.self))
        let sender = try row.value(8, as: String?.self), text = try row.value(9, as: String?.self)
        return ModerationReport(
            id: String(id), createdAt: Timestamp(millisecondsSince1970: try row.value(1)), reporter: try row.value(2),
            reported: try row.value(3), reportedSuspended: try row.value(4), reason: try row.value(5), note: try row.value(6),
            message: messageId.map { ReportedMessage(id: String($0), sender: sender ?? "", text: text ?? "", mediaIds: mediaIds) },
            action: try row.value(11), resolvedBy: try row.value(12),
            resolvedAt: try row.value(13, as: Int64?.self).map(Timestamp.init(millisecondsSince1970:)))
    }

    /// Appends one entry to the audit log, in the transaction of the action it records.
    static func audit(
        _ scope: PostgresScope, _ actor: OperatorActor, _ action: AuditEntry.Action, target: String, detail: String? = nil,
        at: Timestamp
    ) async throws {
        try await scope.execute("""
            INSERT INTO operator_actions (operator_id, operator_username, action, target, detail, created_at)
            VALUES (\(actor.userId), \(actor.username), \(action.rawValue), \(target), \(detail), \(at.millisecondsSince1970))
            """)
    }
}
