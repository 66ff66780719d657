import ChirpModels

/// Client error reports.
protocol ClientLogStore: Sendable {
    /// Stores the batch; false when this user's batch id was stored before.
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws
        -> Bool
    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry]
    /// Deletes up to `limit` of the oldest entries received before `cutoff`, and the batch ids
    /// received before it; returns how many entries went.
    func deleteClientLogs(receivedBefore cutoff: Timestamp, limit: Int) async throws -> Int
}

/// A client log entry as stored (`id`, `username` and `receivedAt` are filled when read back).
public struct ClientLogEntry: Sendable, Hashable {
    public var level: String
    public var message: String
    public var loggedAt: Timestamp
    public var metadata: [String: String]?
    public var source: String?
    public var username: String?
    public var batchId: String?

    /// The severity order of `level`: debug 0 … fatal 4.
    public var severity: Int { LogRecord.levels.firstIndex(of: level) ?? 0 }
}
