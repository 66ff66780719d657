import Synchronization

/// Runs async jobs one at a time, in the order they were submitted. An actor alone does not
/// do this: at each `await` inside a method another call may run, so a read-merge-write of the
/// ledger could interleave with another and write what it read before the other wrote (a
/// stale `delivered` over a fresh `read`). Each job here starts after the previous one ended.
final class WriteSerializer: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `job` after every job submitted before it; its result or error is the caller's.
    func run<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = tail.withLock { tail -> Task<T, any Error> in
            let previous = tail
            let task = Task<T, any Error> {
                await previous?.value
                return try await job()
            }
            tail = Task { _ = try? await task.value }
            return task
        }
        return try await task.value
    }
}
