import ChirpLogging
import ChirpModels
import ChirpNetworking
import Foundation

/// Sends the remote log reporter's batches to the Chirp server's `POST /v1/logs`, as the user
/// whose token is current when the batch leaves (a process that starts logged out uploads
/// once someone logs in).
public struct ChirpLogUploader: LogUploader {
    /// Why a batch cannot leave yet.
    public struct NoSession: Error, CustomStringConvertible {
        public var description: String { "nobody is logged in: error reports wait until someone is" }
    }

    private let send: @Sendable (LogUpload) async throws -> Void

    /// Uploads as the user whose token `api` carries.
    public init(api: ChirpAPIClient) {
        send = { upload in _ = try await api.send(ChirpEndpoints.UploadLogs(upload)) }
    }

    /// Uploads to `server` with the token `token()` returns at that moment.
    public init(
        server: Server, transport: any Transport = AsyncHTTPClientTransport(), token: @escaping @Sendable () -> String?
    ) {
        send = { upload in
            guard let current = token() else { throw NoSession() }
            _ = try await ChirpAPIClient(server: server, token: current, transport: transport).send(
                ChirpEndpoints.UploadLogs(upload))
        }
    }

    /// Posts the batch to `/v1/logs`; returns once the server acknowledged it.
    public func upload(_ batch: LogBatch) async throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let records = batch.entries.map { entry in
            LogRecord(
                level: entry.level.rawValue, message: String(entry.message.unicodeScalars.prefix(10_000)),
                timestamp: formatter.string(from: entry.timestamp),
                metadata: entry.metadata.map {
                    Dictionary(
                        $0.sorted { $0.key < $1.key }.prefix(50).map { ($0.key, $0.value) },
                        uniquingKeysWith: { a, _ in a })
                },
                source: entry.source.map { String($0.unicodeScalars.prefix(200)) })
        }
        try await send(LogUpload(batchId: batch.batchId, entries: records))
    }
}
