import GRDB
import Synchronization

/// Group commit for SQLite: concurrent write requests that arrive while a transaction is being
/// written are queued, then all run in the next single transaction, one savepoint each.
///
/// A write that throws rolls back only its own savepoint and gets its own error; the others in
/// the batch still commit. (Unless SQLite rolled the whole transaction back, as it may on a
/// full disk or an I/O error: then every write in the batch gets that error.) Callers resume
/// only after the shared COMMIT has returned, so an acknowledged write is durable. With one
/// writer the cost of a commit (and its fsync) is paid once per batch instead of once per
/// request.
///
/// A job may leave work for the end of its batch (`atBatchEnd`): it runs in the same
/// transaction after every job's savepoint. The FTS5 search index needs this: it writes its
/// pending terms out as a new segment at every savepoint, so indexed in each job it would
/// write one segment per message instead of one per batch.
final class WriteCoalescer: Sendable {
    private struct Job: Sendable {
        /// Runs the job in its savepoint; returns the error it threw, if any.
        let run: @Sendable (Database) -> (any Error)?
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct State {
        var pending: [Job] = []
        var draining = false
    }

    private let pool: DatabasePool
    private let maxBatch: Int
    private let state = Mutex(State())
    /// What the batch's jobs left for its end, in order; used only on the writer's queue.
    private let batchEnd = Mutex<[@Sendable (Database) throws -> Void]>([])

    init(pool: DatabasePool, maxBatch: Int = 512) {
        self.pool = pool
        self.maxBatch = maxBatch
    }

    /// Runs `operation` in the next shared transaction and returns its result once committed.
    func write<T: Sendable>(_ operation: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { db in
                    let mark = self.batchEnd.withLock { $0.count }
                    do {
                        let value = try Self.inSavepoint(db) { try operation(db) }
                        outcome.withLock { $0 = .success(value) }
                        return nil
                    } catch {
                        // A job rolled back leaves nothing for the batch's end either.
                        self.batchEnd.withLock { $0.removeSubrange(mark...) }
                        outcome.withLock { $0 = .failure(error) }
                        return error
                    }
                },
                finish: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: outcome.withLock { $0! })
                    }
                })
            enqueue(job)
        }
    }

    /// Runs `operation` in a savepoint of the open transaction: released when it returns,
    /// rolled back (and only it) when it throws. GRDB's `inSavepoint` prepares its statements
    /// on every call; these are prepared once per connection.
    private static func inSavepoint<T>(_ db: Database, _ operation: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT job").execute()
        do {
            let value = try operation()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT job").execute()
            return value
        } catch {
            try? db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT job").execute()
            try? db.cachedStatement(sql: "RELEASE SAVEPOINT job").execute()
            throw error
        }
    }

    /// Leaves `work` for the end of the running job's batch: it runs in the same transaction,
    /// after the savepoints of every job, before the COMMIT, in the order left; it is dropped
    /// if the job throws. If it throws, the whole batch fails with its error. Call it only
    /// from inside a job's operation.
    func atBatchEnd(_ work: @escaping @Sendable (Database) throws -> Void) {
        batchEnd.withLock { $0.append(work) }
    }

    /// Writes waiting for the next transaction (for tests that need a batch of a known shape).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    private func enqueue(_ job: Job) {
        let startDrain = state.withLock { state -> Bool in
            state.pending.append(job)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain {
            // The drain runs on GRDB's writer queue itself: no task or extra hop per batch.
            pool.asyncWriteWithoutTransaction { db in self.drain(db) }
        }
    }

    /// Commits batches until none is pending; each job's caller resumes after its batch's COMMIT.
    private func drain(_ db: Database) {
        while true {
            let batch = state.withLock { state -> [Job] in
                if state.pending.isEmpty {
                    state.draining = false
                    return []
                }
                let count = min(state.pending.count, maxBatch)
                let batch = Array(state.pending.prefix(count))
                state.pending.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            batchEnd.withLock { $0 = [] }
            do {
                try db.inTransaction(.immediate) {
                    for job in batch {
                        // After some errors (disk full, I/O error, out of memory) SQLite rolls
                        // the whole transaction back, not only the job's savepoint: the jobs
                        // before it are gone, and GRDB would refuse the ones after it
                        // ("Transaction was aborted"). The batch fails with the error that
                        // caused it, which says what happened (such as a full disk).
                        if let error = job.run(db), !db.isInsideTransaction { throw error }
                    }
                    for work in batchEnd.withLock({ $0 }) { try work(db) }
                    return .commit
                }
                for job in batch { job.finish(nil) }
            } catch {
                for job in batch { job.finish(error) }
            }
        }
    }
}
