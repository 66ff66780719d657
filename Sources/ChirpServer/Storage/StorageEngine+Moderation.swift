import ChirpModels

/// `ModerationStore`, written once for both engines (a message's take-down is with the other
/// message changes, `StorageEngine+MessageChanges`).
extension StorageEngine {
    func isOperator(userId: Int64) async throws -> Bool {
        try await reading { scope in
            try await scope.queryValue("SELECT operator FROM users WHERE id = $1", userId, as: Bool.self) ?? false
        }
    }

    func setOperator(usernameKey: String, _ isOperator: Bool, by actor: OperatorActor, at: Timestamp) async throws
        -> Bool?
    {
        try await writing { scope in
            guard let (id, username) = try await scope.userIdAndName(key: usernameKey) else { return nil }
            let changed =
                try await scope.run("UPDATE users SET operator = $1 WHERE id = $2 AND operator <> $1", isOperator, id)
                > 0
            if changed { try await scope.audit(actor, isOperator ? .grant : .revoke, target: username, at: at) }
            return changed
        }
    }

    /// The user's row is updated first: on PostgreSQL a login's session insert on any instance
    /// waits for it (`createSession` reads the row `FOR SHARE`), so the delete here sees every
    /// session.
    func setSuspended(_ account: SuspensionTarget, _ suspended: Bool, by actor: OperatorActor, at: Timestamp)
        async throws
        -> SuspensionOutcome?
    {
        try await writing { scope in
            let found: (Int64, String)?
            switch account {
            case .usernameKey(let key): found = try await scope.userIdAndName(key: key)
            case .userId(let id):
                found = try await scope.queryValue("SELECT username FROM users WHERE id = $1", id, as: String.self).map
                { (id, $0) }
            }
            guard let (id, username) = found else { return nil }
            let changed =
                suspended
                ? try await scope.run(
                    "UPDATE users SET suspended_at = $2 WHERE id = $1 AND suspended_at IS NULL", id, at) > 0
                : try await scope.run(
                    "UPDATE users SET suspended_at = NULL WHERE id = $1 AND suspended_at IS NOT NULL", id) > 0
            guard changed else { return SuspensionOutcome(userId: id, changed: false) }
            if suspended { try await scope.run("DELETE FROM sessions WHERE user_id = $1", id) }
            try await scope.audit(actor, suspended ? .suspend : .unsuspend, target: username, at: at)
            return SuspensionOutcome(userId: id, changed: true)
        }
    }

    func moderationReports(resolved: Bool, before: Int64, limit: Int) async throws -> [Listed<ModerationReport>] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT \(StorageSQL.moderationReportColumns)
                WHERE rp.resolved_at IS \(resolved ? "NOT NULL" : "NULL") AND rp.id < $1 ORDER BY rp.id DESC LIMIT $2
                """,
                before, limit
            ).map { Listed(cursor: try $0("id"), item: try Self.moderationReport(from: $0)) }
        }
    }

    func moderationReport(id: Int64) async throws -> FiledReport? {
        try await reading { scope in try await Self.filedReport(scope, id: id) }
    }

    func resolveReport(id: Int64, action: ModerationAction, by actor: OperatorActor, at: Timestamp) async throws
        -> WriteOutcome<ModerationReport>?
    {
        try await writing { scope in
            let changed =
                try await scope.run(
                    "UPDATE reports SET resolved_at = $1, resolved_by = $2, resolution = $3 WHERE id = $4 AND resolved_at IS NULL",
                    at, actor.username, action.rawValue, id) > 0
            guard let report = try await Self.filedReport(scope, id: id)?.report else { return nil }
            if changed {
                try await scope.audit(actor, .resolveReport, target: report.id, detail: action.rawValue, at: at)
            }
            return WriteOutcome(value: report, created: changed)
        }
    }

    func auditLog(before: Int64, limit: Int) async throws -> [Listed<AuditEntry>] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT id, operator_username, action, target, detail, created_at FROM operator_actions
                WHERE id < $1 ORDER BY id DESC LIMIT $2
                """,
                before, limit
            ).map { row in
                let id: Int64 = try row("id")
                return Listed(
                    cursor: id,
                    item: AuditEntry(
                        id: String(id), operator: try row("operator_username"), action: try row("action"),
                        target: try row("target"),
                        detail: try row("detail"), createdAt: try row("created_at")))
            }
        }
    }

    func serverFigures() async throws -> ServerFigures {
        try await reading { scope in
            guard let row = try await scope.queryRow(StorageSQL.serverFigures),
                let bytes = try await scope.queryValue(scope.dialect.databaseSize, as: Int.self)
            else { throw StorageError.inconsistent("the figures query returned no row") }
            return ServerFigures(
                users: try row("users"), suspendedUsers: try row("suspended"), messages: try row("messages"),
                openReports: try row("open_reports"), storageBytes: bytes, mediaBytes: try row("media_bytes"))
        }
    }

    private static func filedReport(_ scope: Scope, id: Int64) async throws -> FiledReport? {
        try await scope.queryRow("SELECT \(StorageSQL.moderationReportColumns) WHERE rp.id = $1", id)
            .map { FiledReport(report: try moderationReport(from: $0), reportedUserId: try $0("reported_id")) }
    }

    /// Reads a row of `StorageSQL.moderationReportColumns`.
    private static func moderationReport(from row: some StorageRow) throws -> ModerationReport {
        let id: Int64 = try row("id")
        let messageId: Int64? = try row("message_id")
        let sender: String? = try row("message_sender")
        let text: String? = try row("message_text")
        let mediaIds = ReportRecord.decodeMediaIds(try row("message_media_ids"))
        return ModerationReport(
            id: String(id), createdAt: try row("created_at"), reporter: try row("reporter_username"),
            reported: try row("reported_username"), reportedSuspended: try row("reported_suspended"),
            reason: try row("reason"),
            note: try row("note"),
            message: messageId.map {
                ReportedMessage(id: String($0), sender: sender ?? "", text: text ?? "", mediaIds: mediaIds)
            },
            action: try row("resolution"), resolvedBy: try row("resolved_by"), resolvedAt: try row("resolved_at"))
    }
}

extension StorageScope {
    /// Appends one entry to the audit log, in the transaction of the action it records.
    func audit(
        _ actor: OperatorActor, _ action: AuditEntry.Action, target: String, detail: String? = nil, at: Timestamp
    ) async throws {
        try await run(
            """
            INSERT INTO operator_actions (operator_id, operator_username, action, target, detail, created_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            """,
            actor.userId, actor.username, action.rawValue, target, detail, at)
    }
}
