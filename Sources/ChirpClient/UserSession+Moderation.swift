import ChirpModels

/// What an operator does through the server (`/v1/admin/...`): every call is 403
/// `not_operator` for other users.
extension UserSession {
    /// The open (or resolved) reports, newest first (one page).
    public func moderationReports(resolved: Bool = false, limit: Int = 100, cursor: String? = nil) async throws -> Page<
        ModerationReport
    > {
        try await api.send(
            ChirpEndpoints.ModerationReports(
                resolved: resolved, page: PageParameters(limit: min(max(limit, 1), 100), cursor: cursor)))
    }

    /// Resolves a report with `action` (suspending the reported account or taking the reported
    /// message down first); returns the resolved report.
    @discardableResult
    public func resolveReport(_ id: String, action: ModerationAction) async throws -> ModerationReport {
        try await api.send(ChirpEndpoints.ResolveReport(id, action: action))
    }

    /// Suspends `username` (their sessions end everywhere, login is refused), or lifts it.
    public func setSuspended(_ username: String, _ suspended: Bool) async throws {
        _ = try await api.send(ChirpEndpoints.Suspension(username, lift: !suspended))
    }

    /// Takes a message down: both people see a tombstone "removed by the operators".
    public func removeMessage(_ messageId: String) async throws {
        _ = try await api.send(ChirpEndpoints.RemoveMessage(messageId))
    }

    /// The server's figures.
    public func serverFigures() async throws -> ServerFigures {
        try await api.send(ChirpEndpoints.ServerStats())
    }

    /// The audit log of operator actions, newest first (one page).
    public func auditLog(limit: Int = 100, cursor: String? = nil) async throws -> Page<AuditEntry> {
        try await api.send(
            ChirpEndpoints.AuditLog(page: PageParameters(limit: min(max(limit, 1), 100), cursor: cursor)))
    }
}
