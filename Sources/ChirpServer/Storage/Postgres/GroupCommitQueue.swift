import Synchronization

/// Group commit for PostgreSQL: requests that arrive while a batch is being written wait in a
/// queue, then all go to the next batch, which `run` writes in one transaction.
///
/// At most `maxConcurrent` batches run at once (two by default, as for session lookups: a lone
/// request starts at once, and a busy server gathers the requests of one query's time into
/// the next while one batch's query overlaps the other's). `run` returns
/// one result per item, in order; each caller gets its own, so one item's failure is not the
/// others'. Callers resume only after `run` returned, that is after the shared COMMIT.
final class GroupCommitQueue<Item: Sendable, Output: Sendable>: Sendable {
    /// Writes one batch; returns a result for each item, in order.
    typealias Run = @Sendable ([Item]) async -> [Result<Output, any Error>]

    private struct Waiting: Sendable {
        let item: Item
        let continuation: CheckedContinuation<Output, any Error>
    }

    /// A batch being written by one drain.
    private struct InFlight {
        let waiting: [Waiting]
        let started: ContinuousClock.Instant
    }

    private struct State {
        var pending: [Waiting] = []
        var running = 0
        var largestBatch = 0
        var batches = 0
        /// Batches being written, and the drains writing them (cancelled when a batch is given
        /// up), by drain.
        var inFlight: [Int: InFlight] = [:]
        var drains: [Int: Task<Void, Never>] = [:]
        var nextDrain = 0
        var watchdog = false
    }

    private let maxBatch: Int
    private let maxConcurrent: Int
    private let deadline: Duration
    private let state = Mutex(State())

    /// A batch not written within `deadline` fails as `StorageError.unavailable` (its outcome is
    /// unknown, and a retry with the same ids finds out): a connection that died under a
    /// query can leave postgres-nio waiting for ever (seen when a primary was killed during
    /// a synchronous commit), and one stuck batch would hold every later one. One watchdog
    /// task per queue, awake only while batches run, checks every quarter of `deadline`:
    /// a timer per batch cost a dispatch timer, two tasks and several thread wake-ups a batch.
    init(maxBatch: Int = 256, maxConcurrent: Int = 2, deadline: Duration = .seconds(5)) {
        self.maxBatch = maxBatch
        self.maxConcurrent = maxConcurrent
        self.deadline = deadline
    }

    /// Queues `item` for the next batch and returns its result once that batch has been written.
    /// Every caller passes the same `run`.
    func submit(_ item: Item, run: @escaping Run) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.pending.append(Waiting(item: item, continuation: continuation))
                guard state.running < maxConcurrent else { return false }
                state.running += 1
                return true
            }
            if start { startDrain(run) }
        }
    }

    /// The most items one batch held, and how many batches ran (for tests and figures).
    var statistics: (largestBatch: Int, batches: Int) { state.withLock { ($0.largestBatch, $0.batches) } }

    /// Starts a drain in a slot already counted in `running`.
    private func startDrain(_ run: @escaping Run) {
        let id = state.withLock { state in
            defer { state.nextDrain += 1 }
            return state.nextDrain
        }
        let task = Task { await self.drain(run, id: id) }
        state.withLock { $0.drains[id] = task }
    }

    private func drain(_ run: @escaping Run, id: Int) async {
        defer { _ = state.withLock { $0.drains.removeValue(forKey: id) } }
        while true {
            let (batch, watch) = state.withLock { state -> ([Waiting], Bool) in
                guard !state.pending.isEmpty else {
                    state.running -= 1
                    return ([], false)
                }
                let batch = Array(state.pending.prefix(maxBatch))
                state.pending.removeFirst(batch.count)
                state.largestBatch = max(state.largestBatch, batch.count)
                state.batches += 1
                state.inFlight[id] = InFlight(waiting: batch, started: .now)
                let startWatchdog = !state.watchdog
                state.watchdog = true
                return (batch, startWatchdog)
            }
            guard !batch.isEmpty else { return }
            if watch { Task { await self.watch(run) } }
            let results = await run(batch.map(\.item))
            // Given up by the watchdog: its waiters were answered and this slot handed on.
            guard state.withLock({ $0.inFlight.removeValue(forKey: id) }) != nil else { return }
            for (index, waiting) in batch.enumerated() {
                waiting.continuation.resume(
                    with: index < results.count
                        ? results[index] : .failure(StorageError.inconsistent("a batch returned too few results")))
            }
        }
    }

    /// Fails batches older than `deadline` and hands their slots to new drains, until no batch
    /// is in flight.
    private func watch(_ run: @escaping Run) async {
        while true {
            try? await Task.sleep(for: deadline / 4)
            let now = ContinuousClock.now
            let (expired, restarts, done) = state.withLock {
                state -> ([(batch: InFlight, drain: Task<Void, Never>?)], Int, Bool) in
                let late = state.inFlight.filter { now - $0.value.started >= deadline }
                for id in late.keys { state.inFlight[id] = nil }
                state.running -= late.count
                var restarts = 0
                while state.running < maxConcurrent, state.pending.count > restarts * maxBatch {
                    state.running += 1
                    restarts += 1
                }
                let done = state.inFlight.isEmpty
                if done { state.watchdog = false }
                return (late.map { ($0.value, state.drains[$0.key]) }, restarts, done)
            }
            let failure = StorageError.unavailable(cause: "the database did not answer within \(deadline)")
            for (batch, drain) in expired {
                drain?.cancel()
                for waiting in batch.waiting { waiting.continuation.resume(throwing: failure) }
            }
            for _ in 0..<restarts { startDrain(run) }
            if done { return }
        }
    }
}
