/// The error codes of moderation (issue 39: operators, suspensions, take-downs).
extension APIErrorCode {
    /// An `/v1/admin/...` route called by someone who is not an operator (403).
    public static let notOperator = "not_operator"
    /// A login to a suspended account, with the right password (403).
    public static let accountSuspended = "account_suspended"
    /// No report with that id (404).
    public static let reportNotFound = "report_not_found"
    /// Resolving a report that is already resolved (409).
    public static let reportResolved = "report_resolved"
    /// `remove-message` on a report that names no message (422).
    public static let noReportedMessage = "no_reported_message"
    /// An operator suspending their own account (422).
    public static let cannotSuspendSelf = "cannot_suspend_self"
    /// An action that is not `none`, `suspend` or `remove-message` (422).
    public static let invalidAction = "invalid_action"
}
