import Synchronization
import Testing

@testable import ChirpServer

/// `GroupCommitQueue` on its own, with batch writers that stand in for the database.
@Suite("Group commit queue")
struct GroupCommitQueueTests {
    @Test func concurrentItemsShareBatchesAndEachGetsItsOwnResult() async throws {
        let queue = GroupCommitQueue<Int, Int>(maxConcurrent: 2)
        let run: GroupCommitQueue<Int, Int>.Run = { items in
            try? await Task.sleep(for: .milliseconds(20))
            return items.map { $0 % 7 == 0 ? .failure(StorageError.unstorableText) : .success($0 * 2) }
        }
        let answers = await withTaskGroup(of: (Int, Result<Int, StorageError>).self) { group in
            for item in 1...60 {
                group.addTask {
                    do { return (item, .success(try await queue.submit(item, run: run))) } catch {
                        return (item, .failure(error as? StorageError ?? .inconsistent("\(error)")))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for item in 1...60 {
            #expect(answers[item] == (item % 7 == 0 ? .failure(.unstorableText) : .success(item * 2)))
        }
        #expect(queue.statistics.largestBatch > 1)
        #expect(queue.statistics.batches < 60)
    }

    @Test func aBatchThatNeverEndsFailsAfterTheDeadlineAndTheNextOnesAreServed() async throws {
        let queue = GroupCommitQueue<Int, Int>(maxConcurrent: 1, deadline: .milliseconds(200))
        let stuck = StuckRun()
        let run: GroupCommitQueue<Int, Int>.Run = { items in
            if items.contains(0) { await stuck.hang() }
            return items.map { .success($0 + 100) }
        }
        let start = ContinuousClock.now
        await #expect(throws: StorageError.self) { try await queue.submit(0, run: run) }
        let waited = ContinuousClock.now - start
        // Not before the deadline; later only by the watchdog's period and a busy machine.
        #expect(waited >= .milliseconds(200) && waited < .seconds(120))
        // The only slot was held by the stuck batch: the watchdog handed it on.
        #expect(try await queue.submit(1, run: run) == 101)
        #expect(try await queue.submit(2, run: run) == 102)
        stuck.release()
    }
}

/// A batch writer that waits until released, ignoring cancellation (as a query on a dead
/// connection can).
private final class StuckRun: Sendable {
    private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let released = Mutex(false)

    func hang() async {
        await withCheckedContinuation { continuation in
            let resumeNow = released.withLock { released in
                if !released { waiter.withLock { $0 = continuation } }
                return released
            }
            if resumeNow { continuation.resume() }
        }
    }

    func release() {
        released.withLock { $0 = true }
        waiter.withLock { $0.take() }?.resume()
    }
}
