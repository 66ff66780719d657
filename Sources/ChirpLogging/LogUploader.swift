/// A batch of entries as uploaded: the id makes a retried upload recognisable, so the
/// receiver stores it once.
public struct LogBatch: Sendable, Hashable, Codable {
    /// Identifies the batch; a retry sends the same id.
    public var batchId: String
    /// The entries, oldest first.
    public var entries: [LogEntry]

    /// Creates a batch.
    public init(batchId: String, entries: [LogEntry]) {
        self.batchId = batchId
        self.entries = entries
    }
}

/// Sends a batch to wherever logs are collected. Returning normally means the receiver
/// acknowledged the batch (it is then purged locally); throwing means it must be sent again,
/// with the same `batchId`.
public protocol LogUploader: Sendable {
    func upload(_ batch: LogBatch) async throws
}
