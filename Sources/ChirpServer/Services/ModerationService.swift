import ChirpModels

/// What operators do (issue 39): the reports queue, resolving reports, suspensions,
/// take-downs, the server's figures and the audit log. A route first turns its viewer into an
/// `OperatorActor` with `requireOperator` (one read, on these routes only: no other route pays
/// for moderation), so everyone else gets 403 `not_operator` whatever they asked; every other
/// call takes that actor.
///
/// A suspension deletes the account's sessions in its own transaction and then ends them
/// everywhere as a logout does (this instance's cache, the other instances through the bus,
/// open event streams); login refuses the account until it is lifted. No request checks a
/// suspension flag.
struct ModerationService: Sendable {
    let store: any ModerationStore
    let accounts: AccountService
    let hub: EventHub
    let now: @Sendable () -> Timestamp

    /// The viewer as the actor of operator actions; 403 `not_operator` for anyone else.
    func requireOperator(_ viewer: Viewer) async throws -> OperatorActor {
        guard try await accounts.store.isOperator(userId: viewer.id) else {
            throw APIError(.forbidden, APIErrorCode.notOperator, "Only the server's operators may do this.")
        }
        return OperatorActor(viewer)
    }

    /// Open (or resolved) reports, newest first.
    func reports(resolved: Bool, page: PageRequest) async throws -> Page<ModerationReport> {
        PageBuilder.newestFirst(
            try await store.moderationReports(resolved: resolved, before: page.before, limit: page.fetch),
            limit: page.limit)
    }

    /// Resolves an open report with `request.action`, after doing it: suspending the reported
    /// account, or taking the reported message down.
    func resolve(reportId: String, _ request: ResolveReportRequest, by actor: OperatorActor) async throws
        -> ModerationReport
    {
        guard let action = ModerationAction(rawValue: request.action) else {
            throw APIError(
                .unprocessableContent, APIErrorCode.invalidAction,
                "The action must be none, suspend or remove-message.", field: "action")
        }
        guard let id = Validation.parseId(reportId), let filed = try await store.moderationReport(id: id) else {
            throw Self.reportNotFound
        }
        let report = filed.report
        guard report.status == ModerationReport.open else { throw Self.alreadyResolved }
        switch action {
        case .none: break
        // The account reported, by its id: its name may be someone else's after a deletion.
        case .suspend: try await setSuspended(.userId(filed.reportedUserId), true, by: actor, named: report.reported)
        case .removeMessage:
            guard let message = report.message else {
                throw APIError(
                    .unprocessableContent, APIErrorCode.noReportedMessage, "This report names no message to remove.",
                    field: "action")
            }
            try await takeDown(messageId: message.id, by: actor)
        }
        guard let outcome = try await store.resolveReport(id: id, action: action, by: actor, at: now()) else {
            throw Self.reportNotFound
        }
        guard outcome.created else { throw Self.alreadyResolved }
        return outcome.value
    }

    /// Suspends `username` (their sessions end at once on every instance, login answers 403
    /// `account_suspended`) or lifts the suspension; idempotent.
    func setSuspended(username: String, _ suspended: Bool, by actor: OperatorActor) async throws {
        let key = try UsernameLookup.key(username)
        if suspended, let own = actor.username, key == Validation.usernameKey(own) { throw Self.cannotSuspendSelf }
        try await setSuspended(.usernameKey(key), suspended, by: actor, named: username)
    }

    private func setSuspended(
        _ account: SuspensionTarget, _ suspended: Bool, by actor: OperatorActor, named username: String
    )
        async throws
    {
        if suspended, case .userId(let id) = account, id == actor.userId { throw Self.cannotSuspendSelf }
        guard let outcome = try await store.setSuspended(account, suspended, by: actor, at: now()) else {
            throw APIError.userNotFound(username)
        }
        if suspended, outcome.changed { await accounts.sessionsEnded(userId: outcome.userId) }
    }

    /// Takes message `messageId` down: a tombstone for both people, marked "removed by the
    /// operators", in their stored events too, and `message.deleted` to both; idempotent.
    func takeDown(messageId: String, by actor: OperatorActor) async throws {
        guard let id = Validation.parseId(messageId),
            let outcome = try await store.takeDown(messageId: id, by: actor, at: now(), encoding: MessageChangeJSON())
        else {
            throw APIError(.notFound, APIErrorCode.messageNotFound, "There is no message \(messageId.prefix(32)).")
        }
        hub.publish(outcome.appended)
    }

    /// The server's figures.
    func figures() async throws -> ServerFigures {
        try await store.serverFigures()
    }

    /// The audit log, newest first.
    func audit(page: PageRequest) async throws -> Page<AuditEntry> {
        PageBuilder.newestFirst(try await store.auditLog(before: page.before, limit: page.fetch), limit: page.limit)
    }

    static let reportNotFound = APIError(.notFound, APIErrorCode.reportNotFound, "There is no report with this id.")
    static let cannotSuspendSelf = APIError(
        .unprocessableContent, APIErrorCode.cannotSuspendSelf, "You cannot suspend your own account.")
    static let alreadyResolved = APIError(.conflict, APIErrorCode.reportResolved, "This report is already resolved.")
}
