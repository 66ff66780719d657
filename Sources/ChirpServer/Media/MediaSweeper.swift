import Logging
import ServiceLifecycle

/// Runs the media sweep (`MediaService.sweep`) every `interval` beside the server, and stops
/// with it.
struct MediaSweeper: Service {
    let media: MediaService
    let interval: Duration
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                do {
                    let deleted = try await media.sweep()
                    if deleted > 0 { logger.info("media sweep", metadata: ["deleted": "\(deleted)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("media sweep failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
