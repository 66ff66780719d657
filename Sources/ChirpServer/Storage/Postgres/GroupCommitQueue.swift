import Synchronization

/// Group commit for PostgreSQL: requests that arrive while a batch is being written wait in a
/// queue, then all go to the next batch, which `run` writes in one transaction.
///
/// At most `maxConcurrent` batches run at once (one by default, so a lone request starts at once
/// and a busy server gathers the requests of one commit's time into the next). `run` returns
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
    private let state = Mutex(State())

    init(maxBatch: Int = 256, maxConcurrent: Int = 1) {
        self.maxBatch = maxBatch
        self.maxConcurrent = maxConcurrent
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

    private func drain(_ run: Run) async {
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
            let results = await run(batch.map(\.item))
            for (index, waiting) in batch.enumerated() {
                waiting.continuation.resume(
                    with: index < results.count ? results[index] : .failure(StorageError.inconsistent("a batch returned too few results")))
            }
        }
    }
}
