/// Body of `POST /v1/logs`: a batch of client log entries. Sending the same `batchId` again
/// is accepted and not stored twice.
public struct LogUpload: Sendable, Hashable, Codable {
    public var batchId: String
    public var entries: [LogRecord]

    public init(batchId: String, entries: [LogRecord]) {
        self.batchId = batchId
        self.entries = entries
    }

    /// Most entries one batch may hold.
    public static let maxEntries = 500
}

/// One client log entry: `level` is debug, info, warning, error or fatal; `timestamp` is
/// RFC 3339.
public struct LogRecord: Sendable, Hashable, Codable {
    public var level: String
    public var message: String
    public var timestamp: String
    public var metadata: [String: String]?
    public var source: String?

    public init(
        level: String, message: String, timestamp: String, metadata: [String: String]? = nil, source: String? = nil
    ) {
        self.level = level
        self.message = message
        self.timestamp = timestamp
        self.metadata = metadata
        self.source = source
    }

    /// The levels the server accepts.
    public static let levels = ["debug", "info", "warning", "error", "fatal"]
}

/// The reply of `POST /v1/logs` (202): how many entries the batch held and whether it had been
/// received before.
public struct LogUploadReceipt: Sendable, Hashable, Codable {
    public var batchId: String
    public var accepted: Int
    public var duplicate: Bool

    public init(batchId: String, accepted: Int, duplicate: Bool) {
        self.batchId = batchId
        self.accepted = accepted
        self.duplicate = duplicate
    }
}
