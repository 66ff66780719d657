import ChirpModels
import Foundation
import GRDB
import Testing

@testable import ChirpServer

@Suite("Group commit")
struct WriteCoalescerTests {
    @Test func concurrentWritesShareTransactionsAndFailAlone() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await Self.tableOfValues(in: directory, unique: true)
        let commits = TransactionCounter()
        pool.add(transactionObserver: commits)
        let coalescer = WriteCoalescer(pool: pool)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    do {
                        // Every tenth write collides on the unique value and must fail alone.
                        let value = index % 10 == 0 ? "dup" : "v\(index)"
                        try await coalescer.write { db in
                            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [value])
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 181, "180 distinct values and one 'dup' commit")
        let rows = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        #expect(rows == 181)
        #expect(commits.count < 200, "writes were grouped: \(commits.count) commits for 200 writes")
    }

    @Test func aWriteThatThrowsAfterWritingLeavesNothingBehind() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await Self.tableOfValues(in: directory, unique: false)
        let coalescer = WriteCoalescer(pool: pool)
        struct Refused: Error {}
        let stored = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<100 {
                group.addTask {
                    // Odd writes insert their row, then change their mind.
                    let written = try? await coalescer.write { db in
                        try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["v\(index)"])
                        if index % 2 == 1 { throw Refused() }
                    }
                    return written == nil ? nil : index
                }
            }
            return await group.reduce(into: Set<Int>()) { if let index = $1 { $0.insert(index) } }
        }
        #expect(stored == Set(stride(from: 0, to: 100, by: 2)))
        let values = try await pool.read { db in try Set(String.fetchAll(db, sql: "SELECT value FROM t")) }
        #expect(
            values == Set(stride(from: 0, to: 100, by: 2).map { "v\($0)" }),
            "a refused write's row is rolled back with it")
    }

    @Test func aJobAfterWhichSQLiteRolledEverythingBackFailsItsWholeBatch() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await Self.tableOfValues(in: directory, unique: false)
        let coalescer = WriteCoalescer(pool: pool)
        // A first write holds the writer while the next batch queues: the failing job, then 30.
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        async let blocker: Void = coalescer.write { db in
            try db.execute(sql: "INSERT INTO t (value) VALUES ('blocker')")
            started.signal()
            release.wait()
        }
        await Self.wait("the blocker started") { started.wait(timeout: .now()) == .success }
        async let failing: Bool =
            (try? await coalescer.write { db in
                // What SQLite does on a full disk or an I/O error: the whole transaction is gone.
                try db.execute(sql: "INSERT INTO t (value) VALUES ('failing')")
                try db.execute(sql: "ROLLBACK")
                throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")
            }) != nil
        await Self.wait("the failing job queued") { coalescer.pendingCount == 1 }
        async let others = withTaskGroup(of: (Int, (any Error)?).self) { group in
            for index in 0..<30 {
                group.addTask {
                    do {
                        try await coalescer.write { db in
                            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["v\(index)"])
                        }
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            return await group.reduce(into: [Int: (any Error)?]()) { $0[$1.0] = $1.1 }
        }
        await Self.wait("the 30 writes queued behind it") { coalescer.pendingCount == 31 }
        release.signal()
        let errors = await others
        try await blocker
        #expect(await failing == false)
        let values = try await pool.read { db in try Set(String.fetchAll(db, sql: "SELECT value FROM t")) }
        #expect(values == ["blocker"], "nothing of the rolled-back batch is stored")
        for index in 0..<30 {
            let code = (errors[index] as? DatabaseError)?.resultCode
            #expect(
                code == .SQLITE_FULL,
                "write \(index) failed with the error that ended its batch, not \(String(describing: errors[index]))")
        }
    }

    @Test func sequencesStayGapFreeUnderConcurrentAppends() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let now = Timestamp.now()
        let id = try await storage.account("target", tokenHash: [1], at: now).id
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask {
                    _ = try? await storage.writer.write { db in
                        try SQLiteStorage.appendEvent(db, userId: id, type: "test", json: "{\"n\":\(index)}", at: now)
                    }
                }
            }
        }
        let slice = try await storage.events(userId: id, since: 0, limit: 1000)
        #expect(slice.events.map(\.seq) == Array(1...300))
        #expect(slice.head == 300)
    }

    @Test func aTweetReachesMoreFollowersThanOneAppendChunkWithoutGaps() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let now = Timestamp.now()
        func account(_ name: String, _ key: UInt8) async throws -> Viewer {
            try await storage.account(name, tokenHash: [key, 0], at: now)
        }
        let author = try await account("author", 0)
        let count = SQLiteStorage.appendChunk * 2 + 5
        var followers: [Viewer] = []
        for index in 0..<count {
            let follower = try await account("fan\(index)", UInt8(index + 1))
            try await storage.follow(follower, "author", at: now)
            followers.append(follower)
        }
        // The author's stream holds one follow notice per follower before the tweet.
        let outcome = try await storage.putTweet(
            NewTweet(author: author, clientTweetId: "t1", text: "to everyone", createdAt: now),
            replay: { $0 }, encode: { try APIJSON.encode($0) })
        #expect(outcome.appended.count == count + 1)
        #expect(Set(outcome.appended.map(\.userId)).count == count + 1)
        let authorEvents = try await storage.events(userId: author.id, since: 0, limit: 1000)
        #expect(authorEvents.events.map(\.seq) == Array(1...Int64(count + 1)))
        #expect(authorEvents.events.last?.type == EventType.tweetCreated)
        for follower in followers {
            let slice = try await storage.events(userId: follower.id, since: 0, limit: 10)
            #expect(
                slice.events.map(\.seq) == [1] && slice.events.first?.type == EventType.tweetCreated,
                "\(follower.username)")
        }
    }

    /// Polls `condition` every millisecond, for up to 60 s; records an issue saying what never
    /// happened if it does not hold by then (the test goes on, so that a writer it holds is
    /// released and nothing hangs).
    static func wait(
        _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation,
        for condition: @escaping @Sendable () -> Bool
    ) async {
        let deadline = ContinuousClock.now + .seconds(60)
        var held = condition()  // evaluated once per poll: a semaphore's wait takes its signal
        while !held, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
            held = condition()
        }
        #expect(held, what, sourceLocation: sourceLocation)
    }

    /// A new database in `directory` with one table, `t (id, value)`.
    static func tableOfValues(in directory: URL, unique: Bool) async throws -> DatabasePool {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("t.sqlite").path)
        try await pool.write { db in
            try db.execute(
                sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT NOT NULL \(unique ? "UNIQUE" : ""))")
        }
        return pool
    }
}

/// Counts committed transactions.
final class TransactionCounter: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var commits = 0
    var count: Int { lock.withLock { commits } }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { lock.withLock { commits += 1 } }
    func databaseDidRollback(_ db: Database) {}
}
