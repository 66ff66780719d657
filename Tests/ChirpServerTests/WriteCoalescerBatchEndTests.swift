import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// Work a job leaves for the end of its batch (`WriteCoalescer.atBatchEnd`, which the search
/// index uses so that FTS5 writes one segment per batch, not one per message).
@Suite("Group commit: work at the end of a batch")
struct WriteCoalescerBatchEndTests {
    /// Holds the writer with a first write while `queue` queues `count` more, then lets them
    /// all run as one batch; returns what each of them threw, by index.
    static func oneBatch(
        _ coalescer: WriteCoalescer, count: Int, _ job: @escaping @Sendable (Int, Database) throws -> Void
    ) async throws -> [Int: (any Error)?] {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        async let blocker: Void = coalescer.write { db in
            try db.execute(sql: "INSERT INTO t (value) VALUES ('blocker')")
            started.signal()
            release.wait()
        }
        await WriteCoalescerTests.wait("the blocker started") { started.wait(timeout: .now()) == .success }
        async let results = withTaskGroup(of: (Int, (any Error)?).self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        try await coalescer.write { db in try job(index, db) }
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            return await group.reduce(into: [Int: (any Error)?]()) { $0[$1.0] = $1.1 }
        }
        await WriteCoalescerTests.wait("the writes queued behind it") { coalescer.pendingCount == count }
        release.signal()
        try await blocker
        return await results
    }

    @Test func itRunsAfterEveryJobOfTheBatchInOrderInTheSameTransaction() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await WriteCoalescerTests.tableOfValues(in: directory, unique: false)
        let commits = TransactionCounter()
        pool.add(transactionObserver: commits)
        let coalescer = WriteCoalescer(pool: pool)
        struct Refused: Error {}
        let before = commits.count
        let errors = try await Self.oneBatch(coalescer, count: 20) { index, db in
            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["job\(index)"])
            coalescer.atBatchEnd { db in
                // By now every job of the batch has run: it sees all ten rows that stayed.
                let jobs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE value LIKE 'job%'")!
                try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["end\(index) saw \(jobs)"])
            }
            // Odd jobs change their mind after leaving work: it goes with them.
            if index % 2 == 1 { throw Refused() }
        }
        #expect(errors.filter { $0.value == nil }.map(\.key).sorted() == Array(stride(from: 0, to: 20, by: 2)))
        let rows = try await pool.read { db in try String.fetchAll(db, sql: "SELECT value FROM t ORDER BY id") }
        let jobs = rows.filter { $0.hasPrefix("job") }
        let ends = rows.filter { $0.hasPrefix("end") }
        #expect(Set(jobs) == Set(stride(from: 0, to: 20, by: 2).map { "job\($0)" }))
        #expect(
            Set(ends) == Set(stride(from: 0, to: 20, by: 2).map { "end\($0) saw 10" }),
            "only the kept jobs' work, after all of them")
        #expect(Array(rows.suffix(10)) == ends, "the work comes after every job's rows")
        #expect(commits.count - before == 2, "the blocker's batch and this one: the work shared the batch's commit")
    }

    @Test func workThatThrowsFailsTheWholeBatchAndLeavesNothing() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await WriteCoalescerTests.tableOfValues(in: directory, unique: false)
        let coalescer = WriteCoalescer(pool: pool)
        struct IndexFailed: Error {}
        let errors = try await Self.oneBatch(coalescer, count: 8) { index, db in
            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["job\(index)"])
            if index == 5 { coalescer.atBatchEnd { _ in throw IndexFailed() } }
        }
        #expect(errors.count == 8)
        #expect(errors.values.allSatisfy { $0 is IndexFailed }, "every write of the batch gets the error")
        let values = try await pool.read { db in try String.fetchAll(db, sql: "SELECT value FROM t") }
        #expect(values == ["blocker"])
        // And the next batch starts with nothing left over.
        try await coalescer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('after')") }
        #expect(
            try await pool.read { db in try String.fetchAll(db, sql: "SELECT value FROM t ORDER BY id") } == [
                "blocker", "after",
            ])
    }
}
