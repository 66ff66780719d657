/// A report as operators see it (`GET /v1/admin/reports`): who reported whom and why, the
/// reported message as it was when reported, whether the reported account is suspended now,
/// and, once resolved, what was done, by which operator and when.
public struct ModerationReport: Sendable, Hashable, Codable {
    public var id: String
    public var createdAt: Timestamp
    public var reporter: String
    public var reported: String
    /// The reported account is suspended now (its messages stay; this marks them for operators).
    public var reportedSuspended: Bool
    public var reason: String
    public var note: String?
    /// The reported message as it was when the report was filed; nil for a report about a user.
    public var message: ReportedMessage?
    /// `open` or `resolved`.
    public var status: String
    /// What resolving it did (`none`, `suspend`, `remove-message`); nil while open.
    public var action: String?
    public var resolvedBy: String?
    public var resolvedAt: Timestamp?

    public init(
        id: String, createdAt: Timestamp, reporter: String, reported: String, reportedSuspended: Bool, reason: String,
        note: String?, message: ReportedMessage?, action: String? = nil, resolvedBy: String? = nil,
        resolvedAt: Timestamp? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.reporter = reporter
        self.reported = reported
        self.reportedSuspended = reportedSuspended
        self.reason = reason
        self.note = note
        self.message = message
        self.status = resolvedAt == nil ? Self.open : Self.resolved
        self.action = action
        self.resolvedBy = resolvedBy
        self.resolvedAt = resolvedAt
    }

    public static let open = "open"
    public static let resolved = "resolved"

    enum CodingKeys: String, CodingKey {
        case id, createdAt, reporter, reported, reportedSuspended, reason, note, message, status, action, resolvedBy,
            resolvedAt
    }

    /// Writes every field, absent ones as `null`, as the API's objects do.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(reporter, forKey: .reporter)
        try container.encode(reported, forKey: .reported)
        try container.encode(reportedSuspended, forKey: .reportedSuspended)
        try container.encode(reason, forKey: .reason)
        try container.encode(note, forKey: .note)
        try container.encode(message, forKey: .message)
        try container.encode(status, forKey: .status)
        try container.encode(action, forKey: .action)
        try container.encode(resolvedBy, forKey: .resolvedBy)
        try container.encode(resolvedAt, forKey: .resolvedAt)
    }
}

/// The copy of a reported message a report keeps: its id, sender, text and media ids when the
/// report was filed, even if the message was later edited, unsent or taken down.
public struct ReportedMessage: Sendable, Hashable, Codable {
    public var id: String
    public var sender: String
    public var text: String
    public var mediaIds: [String]

    public init(id: String, sender: String, text: String, mediaIds: [String]) {
        self.id = id
        self.sender = sender
        self.text = text
        self.mediaIds = mediaIds
    }
}
