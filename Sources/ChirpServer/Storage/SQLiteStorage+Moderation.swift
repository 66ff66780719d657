import ChirpModels
import GRDB

extension SQLiteStorage {
    func isOperator(userId: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT operator FROM users WHERE id = ?"), arguments: [userId]) ?? false
        }
    }

    func setOperator(usernameKey: String, _ isOperator: Bool, by actor: OperatorActor, at: Timestamp) async throws -> Bool? {
        try await write { db in
            guard let (id, username) = try Self.userIdAndName(db, key: usernameKey) else { return nil }
            try db.cachedStatement(sql: "UPDATE users SET operator = ? WHERE id = ? AND operator <> ?")
                .execute(arguments: [isOperator, id, isOperator])
            guard db.changesCount > 0 else { return false }
            try Self.audit(db, actor, isOperator ? .grant : .revoke, target: username, at: at)
            return true
        }
    }

    func setSuspended(_ account: SuspensionTarget, _ suspended: Bool, by actor: OperatorActor, at: Timestamp) async throws
        -> SuspensionOutcome?
    {
        try await write { db in
            let found: (Int64, String)?
            switch account {
            case .usernameKey(let key): found = try Self.userIdAndName(db, key: key)
            case .userId(let id):
                found = try String.fetchOne(db.cachedStatement(sql: "SELECT username FROM users WHERE id = ?"), arguments: [id])
                    .map { (id, $0) }
            }
            guard let (id, username) = found else { return nil }
            if suspended {
                try db.cachedStatement(sql: "UPDATE users SET suspended_at = ? WHERE id = ? AND suspended_at IS NULL")
                    .execute(arguments: [at.millisecondsSince1970, id])
            } else {
                try db.cachedStatement(sql: "UPDATE users SET suspended_at = NULL WHERE id = ? AND suspended_at IS NOT NULL")
                    .execute(arguments: [id])
            }
            guard db.changesCount > 0 else { return SuspensionOutcome(userId: id, changed: false) }
            if suspended {
                try db.cachedStatement(sql: "DELETE FROM sessions WHERE user_id = ?").execute(arguments: [id])
            }
            try Self.audit(db, actor, suspended ? .suspend : .unsuspend, target: username, at: at)
            return SuspensionOutcome(userId: id, changed: true)
        }
    }

    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    {
        let writer = self.writer
        return try await write { db in
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT sender_id, recipient_id FROM messages WHERE id = ? AND group_id IS NULL"), arguments: [id]),
                let message = try Self.fetchMessage(db, where: "m.id = ?", [id])
            else { return try Self.takeDownGroupMessage(db, id: id, by: actor, at: at, encoding: encoding) }
            guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
            var marked = message
            marked.removedByOperators = true
            let takenDown = message.tombstone(byOperators: true)
            let appended = try Self.storeTombstone(
                db, writer: writer, of: marked, sender: row[0], recipient: row[1], notice: encoding.deleted(takenDown), at: at)
            try Self.audit(db, actor, .removeMessage, target: message.id, detail: "\(message.sender) to \(message.recipient)", at: at)
            return WriteOutcome(value: takenDown, created: true, appended: appended)
        }
    }

    func moderationReports(resolved: Bool, before: Int64, limit: Int) async throws -> [Listed<ModerationReport>] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT \(StorageSQL.moderationReportColumns)
                    WHERE rp.resolved_at IS \(resolved ? "NOT NULL" : "NULL") AND rp.id < ? ORDER BY rp.id DESC LIMIT ?
                    """),
                arguments: [before, limit]
            ).map { Listed(cursor: $0[0], item: Self.moderationReport(from: $0)) }
        }
    }

    func moderationReport(id: Int64) async throws -> FiledReport? {
        try await read { db in try Self.fetchModerationReport(db, id: id) }
    }

    func resolveReport(id: Int64, action: ModerationAction, by actor: OperatorActor, at: Timestamp) async throws
        -> WriteOutcome<ModerationReport>?
    {
        try await write { db in
            try db.cachedStatement(sql: """
                UPDATE reports SET resolved_at = ?, resolved_by = ?, resolution = ? WHERE id = ? AND resolved_at IS NULL
                """).execute(arguments: [at.millisecondsSince1970, actor.username, action.rawValue, id])
            let changed = db.changesCount > 0
            guard let report = try Self.fetchModerationReport(db, id: id)?.report else { return nil }
            if changed { try Self.audit(db, actor, .resolveReport, target: report.id, detail: action.rawValue, at: at) }
            return WriteOutcome(value: report, created: changed)
        }
    }

    func auditLog(before: Int64, limit: Int) async throws -> [Listed<AuditEntry>] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT id, operator_username, action, target, detail, created_at FROM operator_actions
                    WHERE id < ? ORDER BY id DESC LIMIT ?
                    """),
                arguments: [before, limit]
            ).map { row in
                let id: Int64 = row[0]
                return Listed(cursor: id, item: AuditEntry(
                    id: String(id), operator: row[1], action: row[2], target: row[3], detail: row[4],
                    createdAt: Timestamp(millisecondsSince1970: row[5])))
            }
        }
    }

    func serverFigures() async throws -> ServerFigures {
        try await read { db in
            let row = try Row.fetchOne(db, sql: StorageSQL.serverFigures)!
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return ServerFigures(
                users: row[0], suspendedUsers: row[1], messages: row[2], openReports: row[3],
                storageBytes: pages * pageSize, mediaBytes: row[4])
        }
    }

    private static func fetchModerationReport(_ db: Database, id: Int64) throws -> FiledReport? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(StorageSQL.moderationReportColumns) WHERE rp.id = ?"), arguments: [id]
        ).map { FiledReport(report: moderationReport(from: $0), reportedUserId: $0[14]) }
    }

    /// Decodes `StorageSQL.moderationReportColumns`.
    private static func moderationReport(from row: Row) -> ModerationReport {
        let id: Int64 = row[0]
        let messageId: Int64? = row[7]
        return ModerationReport(
            id: String(id), createdAt: Timestamp(millisecondsSince1970: row[1]), reporter: row[2], reported: row[3],
            reportedSuspended: row[4], reason: row[5], note: row[6],
            message: messageId.map {
                ReportedMessage(
                    id: String($0), sender: row[8] ?? "", text: row[9] ?? "", mediaIds: ReportRecord.decodeMediaIds(row[10]))
            },
            action: row[11], resolvedBy: row[12], resolvedAt: (row[13] as Int64?).map(Timestamp.init(millisecondsSince1970:)))
    }

    /// Appends one entry to the audit log, in the transaction of the action it records.
    static func audit(
        _ db: Database, _ actor: OperatorActor, _ action: AuditEntry.Action, target: String, detail: String? = nil, at: Timestamp
    ) throws {
        try db.cachedStatement(sql: """
            INSERT INTO operator_actions (operator_id, operator_username, action, target, detail, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [actor.userId, actor.username, action.rawValue, target, detail, at.millisecondsSince1970])
    }
}
