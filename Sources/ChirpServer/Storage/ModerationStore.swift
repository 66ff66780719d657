import ChirpModels

/// What operators do (issue 39): roles, suspensions, take-downs, the reports queue, figures and
/// the audit log. Every action is written with its audit entry in one transaction.
protocol ModerationStore: Sendable {
    /// Makes the user with `usernameKey` an operator or not; nil when there is no such user,
    /// else whether it changed (audited only then).
    func setOperator(usernameKey: String, _ isOperator: Bool, by actor: OperatorActor, at: Timestamp) async throws
        -> Bool?
    /// Suspends (deleting every session of the account in the same transaction) or lifts the
    /// suspension of `account`; nil when there is no such user.
    func setSuspended(_ account: SuspensionTarget, _ suspended: Bool, by actor: OperatorActor, at: Timestamp)
        async throws
        -> SuspensionOutcome?
    /// Makes message `id` a tombstone marked as removed by the operators for both people, its
    /// stored events too, and appends `message.deleted` (data `encoding.deleted`) to both
    /// streams. Nil when there is no such message; not `created` when it was already taken down.
    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    /// Reports, open or resolved, newest first, ids below `before`, at most `limit`.
    func moderationReports(resolved: Bool, before: Int64, limit: Int) async throws -> [Listed<ModerationReport>]
    /// One report with its reported account's id; nil when there is none with that id.
    func moderationReport(id: Int64) async throws -> FiledReport?
    /// Marks an open report resolved with `action`; nil when there is no such report, the report
    /// unchanged (`created` false) when it was already resolved.
    func resolveReport(id: Int64, action: ModerationAction, by actor: OperatorActor, at: Timestamp) async throws
        -> WriteOutcome<ModerationReport>?
    /// The audit log, newest first, ids below `before`, at most `limit`.
    func auditLog(before: Int64, limit: Int) async throws -> [Listed<AuditEntry>]
    /// Counts and sizes for `GET /v1/admin/stats` (`storageBytes` as the database reports it).
    func serverFigures() async throws -> ServerFigures
}

/// Who performs an operator action: an operator (a logged-in user), or the server's command
/// line (`chirp admin grant`), which the audit log shows without a name.
struct OperatorActor: Sendable {
    var userId: Int64?
    var username: String?

    static let commandLine = OperatorActor(userId: nil, username: nil)
    init(userId: Int64?, username: String?) {
        self.userId = userId
        self.username = username
    }
    init(_ viewer: Viewer) { self.init(userId: viewer.id, username: viewer.username) }
}

/// The account a suspension acts on: the one a username names now (the operator's routes), or
/// a stored user id (a report's reported account, whose name a later account may have taken
/// after a deletion).
enum SuspensionTarget: Sendable {
    case usernameKey(String)
    case userId(Int64)
}

/// A report as stored: what operators see, and the id of the reported account, which a
/// resolution acts on (the report's `reported` name may belong to someone else by then).
struct FiledReport: Sendable {
    var report: ModerationReport
    var reportedUserId: Int64
}

/// What a suspension or its lifting did.
struct SuspensionOutcome: Sendable {
    var userId: Int64
    /// False when the account was already in that state (nothing written, nothing audited).
    var changed: Bool
}
