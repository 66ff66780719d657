import Logging
import ServiceLifecycle

/// Runs a sweep every `interval` beside the server and stops with it: the media sweep
/// (`MediaService.sweep`, unreferenced media and abandoned uploads) and the data export sweep
/// (`DataExportService.sweep`, archives past their retention). A sweep returns how many
/// things it removed, logged when any; a failed sweep is logged and tried again next time.
struct PeriodicSweep: Service {
    /// What is swept, for the log (`media`, `export`).
    let name: String
    let interval: Duration
    let logger: Logger
    let sweep: @Sendable () async throws -> Int

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                do {
                    let removed = try await sweep()
                    if removed > 0 { logger.info("\(name) sweep", metadata: ["removed": "\(removed)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("\(name) sweep failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
