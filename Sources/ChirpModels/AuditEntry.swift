/// One operator action in the audit log (`GET /v1/admin/audit`): who, what, on what, when.
public struct AuditEntry: Sendable, Hashable, Codable {
    public var id: String
    /// The operator's username; nil for the server's command line (`chirp admin grant`).
    public var `operator`: String?
    /// One of `AuditEntry.Action`'s raw values.
    public var action: String
    /// A username, a message id or a report id, as the action names it.
    public var target: String
    /// More about the action (a resolution's action, a taken-down message's people); may be nil.
    public var detail: String?
    public var createdAt: Timestamp

    public init(id: String, operator: String?, action: String, target: String, detail: String?, createdAt: Timestamp) {
        self.id = id
        self.operator = `operator`
        self.action = action
        self.target = target
        self.detail = detail
        self.createdAt = createdAt
    }

    /// The actions the log records.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case grant, revoke, suspend, unsuspend
        case removeMessage = "remove-message"
        case resolveReport = "resolve-report"
    }

    enum CodingKeys: String, CodingKey { case id, `operator`, action, target, detail, createdAt }

    /// Writes every field, absent ones as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(`operator`, forKey: .operator)
        try container.encode(action, forKey: .action)
        try container.encode(target, forKey: .target)
        try container.encode(detail, forKey: .detail)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
