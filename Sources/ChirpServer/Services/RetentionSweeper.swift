import ChirpModels
import Logging
import ServiceLifecycle

/// Deletes client log entries, reports and stored events older than the operator's retention
/// (`--client-log-retention`, `--report-retention`, `--event-retention`; zero keeps them) every
/// `interval` beside the server, in batches so no transaction grows large, and stops with it.
struct RetentionSweeper: Service {
    let logs: any ClientLogStore
    let reports: any SafetyStore
    var events: (any EventStore)? = nil
    let logRetention: Duration
    let reportRetention: Duration
    var eventRetention: Duration = .zero
    let interval: Duration
    let now: @Sendable () -> Timestamp
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await sweep()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("retention sweep failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }

    /// One pass: everything past its retention goes.
    func sweep() async throws {
        let now = now()
        func cutoff(_ retention: Duration) -> Timestamp? {
            retention > .zero
                ? Timestamp(millisecondsSince1970: now.millisecondsSince1970 - retention.milliseconds) : nil
        }
        var deleted = (logs: 0, reports: 0)
        if let before = cutoff(logRetention) {
            while true {
                let count = try await logs.deleteClientLogs(receivedBefore: before, limit: Self.batch)
                deleted.logs += count
                if count < Self.batch { break }
            }
        }
        if let before = cutoff(reportRetention) {
            while true {
                let count = try await reports.deleteReports(filedBefore: before, limit: Self.batch)
                deleted.reports += count
                if count < Self.batch { break }
            }
        }
        var prunedEvents = 0
        if let events, let before = cutoff(eventRetention) {
            // A stream at a time, `streamBatch` streams a transaction, each keeping its head.
            var after: Int64 = 0
            while true {
                let step = try await events.pruneEvents(before: before, usersAfter: after, limit: Self.streamBatch)
                prunedEvents += step.deleted
                guard let last = step.lastUserId else { break }
                after = last
            }
        }
        if deleted.logs + deleted.reports + prunedEvents > 0 {
            logger.info(
                "retention sweep",
                metadata: [
                    "client_logs": "\(deleted.logs)", "reports": "\(deleted.reports)", "events": "\(prunedEvents)",
                ])
        }
    }

    static let batch = 1_000
    /// Streams whose old events one transaction deletes.
    static let streamBatch = 100
}
