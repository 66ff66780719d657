import ChirpLogging
import ChirpModels
import ChirpNetworking
import Foundation

/// Sends the remote log reporter's batches to the Chirp server's `POST /v1/logs`.
public struct ChirpLogUploader: LogUploader {
    private let api: ChirpAPIClient

    /// Uploads as the user whose token `api` carries.
    public init(api: ChirpAPIClient) {
        self.api = api
    }

    /// Posts the batch to `/v1/logs`; returns once the server acknowledged it.
    public func upload(_ batch: LogBatch) async throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let records = batch.entries.map { entry in
            LogRecord(
                level: entry.level.rawValue, message: String(entry.message.unicodeScalars.prefix(10_000)),
                timestamp: formatter.string(from: entry.timestamp), metadata: entry.metadata.map { Dictionary($0.sorted { $0.key < $1.key }.prefix(50).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) },
                source: entry.source.map { String($0.unicodeScalars.prefix(200)) })
        }
        _ = try await api.send(ChirpEndpoints.UploadLogs(LogUpload(batchId: batch.batchId, entries: records)))
    }
}
