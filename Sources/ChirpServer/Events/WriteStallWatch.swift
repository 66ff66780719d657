import Synchronization

/// Notices a WebSocket reader that stopped reading. `timed` marks a write as in progress;
/// the server-wide `StallMonitor` checks every watch about once a second and trips one whose
/// write has been in progress for longer than `limit`; `waitForStall()` then throws, which
/// ends the connection's task group and so the connection. The connection's own task does the
/// waiting (`end()` releases it when the connection finishes otherwise), so watching costs no
/// task of its own, and an idle connection costs no wake-ups.
final class WriteStallWatch: Sendable {
    /// Thrown by `waitForStall` when a write stalled.
    struct Stalled: Error {}

    private struct State {
        var startedAt: ContinuousClock.Instant?
        var tripped = false
        var cancelled = false
        var ended = false
        var waiter: CheckedContinuation<Void, any Error>?
    }

    let limit: Duration
    private let state = Mutex(State())

    init(limit: Duration) { self.limit = limit }

    /// Runs one write, marked as in progress.
    func timed(_ write: () async throws -> Void) async throws {
        state.withLock { $0.startedAt = .now }
        defer { state.withLock { $0.startedAt = nil } }
        try await write()
    }

    /// Whether a write has been in progress for longer than `limit` at `now`.
    func isStalled(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.startedAt.map { now - $0 > limit } ?? false }
    }

    /// Ends `waitForStall` with `Stalled`.
    func trip() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.tripped = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: Stalled())
    }

    /// Makes `waitForStall` return: the connection ended without a stall.
    func end() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Suspends until the watch is tripped (throws `Stalled`), `end()` is called (returns) or
    /// the task is cancelled (throws `CancellationError`).
    func waitForStall() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.tripped { return .failure(Stalled()) }
                    if state.cancelled { return .failure(CancellationError()) }
                    if state.ended { return .success(()) }
                    state.waiter = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// One task for the whole server that trips stalled `WriteStallWatch`es, instead of one timer
/// per connection.
final class StallMonitor: Sendable {
    private let watches = Mutex<[ObjectIdentifier: WriteStallWatch]>([:])
    private let started = Mutex(false)
    let period: Duration

    init(period: Duration = .seconds(1)) { self.period = period }

    /// Watches `watch` until `remove`.
    func add(_ watch: WriteStallWatch) {
        watches.withLock { $0[ObjectIdentifier(watch)] = watch }
        startIfNeeded()
    }

    func remove(_ watch: WriteStallWatch) {
        _ = watches.withLock { $0.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    /// Trips every watch stalled at `now`.
    func check(now: ContinuousClock.Instant = .now) {
        let stalled = watches.withLock { $0.values.filter { $0.isStalled(at: now) } }
        for watch in stalled { watch.trip() }
    }

    private func startIfNeeded() {
        let first = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let period = self.period
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: period)
                guard let self else { return }
                self.check()
            }
        }
    }
}
