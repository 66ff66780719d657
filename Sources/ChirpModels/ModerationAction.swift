/// What an operator does when resolving a report (`POST /v1/admin/reports/{id}/resolve`).
public enum ModerationAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Close it without acting.
    case none
    /// Suspend the reported account.
    case suspend
    /// Take the reported message down.
    case removeMessage = "remove-message"
}

/// `POST /v1/admin/reports/{id}/resolve` body: the action as text (`none`, `suspend`,
/// `remove-message`; another word is a 422 rather than malformed JSON).
public struct ResolveReportRequest: Sendable, Hashable, Codable {
    public var action: String

    public init(action: String) { self.action = action }
}
