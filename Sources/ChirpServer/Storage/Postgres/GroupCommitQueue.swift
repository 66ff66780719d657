import Synchronization

/// Group commit for PostgreSQL: requests that arrive while a batch is being written wait in a
/// queue, then all go to the next batch, which `run` writes in one transaction.
///
/// At most `maxConcurrent` batches run at once (two by default: a lone request starts at once, a
/// busy server gathers the requests of one commit's time into the next, and one batch's
/// statements overlap the other's commit; two cut the ack p99 from 45 to 13-15 ms in
/// `chirp bench --database`). `run` returns
/// one result per item, in order; each caller gets its own, so one item's failure is not the
/// others'. Callers resume only after `run` returned, that is after the shared COMMIT.
final class GroupCommitQueue<Item: Sendable, Output: Sendable>: Sendable {
    /// Writes one batch; returns a result for each item, in order.
    typealias Run = @Sendable ([Item]) async -> [Result<Output, any Error>]

    private struct Waiting: Sendable {
        let item: Item
        let continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        var pending: [Waiting] = []
        var running = 0
        var largestBatch = 0
        var batches = 0
    }

    private let maxBatch: Int
    private let maxConcurrent: Int
    private let deadline: Duration
    private let state = Mutex(State())

    /// A batch not written within `deadline` fails as `StorageError.unavailable` (its outcome is
    /// unknown, and a retry with the same ids finds out): a connection that died under a
    /// query can leave postgres-nio waiting for ever (seen when a primary was killed during
    /// a synchronous commit), and one stuck batch would hold every later one.
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
            if start { Task { await self.drain(run) } }
        }
    }

    /// The most items one batch held, and how many batches ran (for tests and figures).
    var statistics: (largestBatch: Int, batches: Int) { state.withLock { ($0.largestBatch, $0.batches) } }

    /// `run(items)`, or failures for all once `deadline` passed first (the run is cancelled
    /// and left to end whenever it does).
    private func runWithDeadline(_ run: @escaping Run, _ items: [Item]) async -> [Result<Output, any Error>] {
        let race = FirstAnswer<[Result<Output, any Error>]>()
        let deadline = deadline
        return await withCheckedContinuation { continuation in
            race.wait(continuation)
            let work = Task {
                race.answer(await run(items))
            }
            race.timer = Task {
                try? await Task.sleep(for: deadline)
                guard !Task.isCancelled else { return }
                let failure = StorageError.unavailable(cause: "the database did not answer within \(deadline)")
                if race.answer(Array(repeating: .failure(failure), count: items.count)) { work.cancel() }
            }
        }
    }

    private func drain(_ run: @escaping Run) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                guard !state.pending.isEmpty else {
                    state.running -= 1
                    return []
                }
                let batch = Array(state.pending.prefix(maxBatch))
                state.pending.removeFirst(batch.count)
                state.largestBatch = max(state.largestBatch, batch.count)
                state.batches += 1
                return batch
            }
            guard !batch.isEmpty else { return }
            let results = await runWithDeadline(run, batch.map(\.item))
            for (index, waiting) in batch.enumerated() {
                waiting.continuation.resume(
                    with: index < results.count ? results[index] : .failure(StorageError.inconsistent("a batch returned too few results")))
            }
        }
    }
}

/// Resumes a waiter with whichever answer comes first (the work's or the timer's).
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, timer: Task<Void, Never>?)>((nil, nil))

    func wait(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The timer, cancelled when the answer comes.
    var timer: Task<Void, Never>? {
        get { state.withLock { $0.timer } }
        set { state.withLock { $0.timer = newValue } }
    }

    /// Resumes the waiter unless an answer came before; says whether this one was first.
    @discardableResult
    func answer(_ value: Value) -> Bool {
        let (continuation, timer) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: value)
        return continuation != nil
    }
}
