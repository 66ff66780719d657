import Synchronization

/// Notices a WebSocket reader that stopped reading: `timed` marks a write as in progress, and
/// `run` throws once one has been in progress for longer than `limit`, which ends the
/// connection's task group and so the connection.
final class WriteStallWatch: Sendable {
    /// Thrown by `run` when a write stalled.
    struct Stalled: Error {}

    let limit: Duration
    private let startedAt = Mutex<ContinuousClock.Instant?>(nil)

    init(limit: Duration) { self.limit = limit }

    /// Runs one write, marked as in progress.
    func timed(_ write: () async throws -> Void) async throws {
        startedAt.withLock { $0 = .now }
        defer { startedAt.withLock { $0 = nil } }
        try await write()
    }

    /// Checks about once a second; throws `Stalled` when a write has taken too long, and
    /// returns only by being cancelled.
    func run() async throws {
        let period = min(limit / 4, .seconds(1))
        while true {
            try await Task.sleep(for: period)
            if let started = startedAt.withLock({ $0 }), ContinuousClock.now - started > limit { throw Stalled() }
        }
    }
}
