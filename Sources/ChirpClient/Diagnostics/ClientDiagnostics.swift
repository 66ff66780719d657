import ChirpLogging
import Foundation
import Logging

/// The client's logging, assembled: a `LogService` that every swift-log `Logger` flows into, a
/// console printer for warnings and worse, and a `RemoteLogReporter` that keeps error and fatal
/// entries under `directory` and uploads them to the server.
public final class ClientDiagnostics: Sendable {
    /// The log hub every Logger flows into.
    public let logs: LogService
    /// Keeps and uploads error and fatal entries.
    public let reporter: RemoteLogReporter

    /// - Parameters:
    ///   - directory: where unsent entries wait (for example `~/.chirp/logs`).
    ///   - consoleLevel: the least severe level printed to standard error (nil: print nothing).
    public init(
        directory: URL, api: ChirpAPIClient, strategy: any RemoteLogPersistenceStrategy = CountPersistenceStrategy(),
        consoleLevel: LogLevel? = .warning
    ) throws {
        logs = LogService()
        reporter = try RemoteLogReporter(directory: directory, uploader: ChirpLogUploader(api: api), strategy: strategy)
        logs.register(reporter, levels: [.error, .fatal])
        if let consoleLevel {
            logs.register(ConsoleLogPrinter(), levels: consoleLevel.andAbove)
        }
    }

    /// Routes swift-log through `logs` for the whole process (call once) and starts uploading
    /// what an earlier run left behind.
    public func start(bootstrapSwiftLog: Bool = true) {
        if bootstrapSwiftLog {
            let service = logs
            LoggingSystem.bootstrap { label in SwiftLogBridge(label: label, service: service) }
        }
        reporter.start()
    }
}
