import ChirpModels
import ChirpTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import ChirpServer

/// Rate limits counted in PostgreSQL (`SharedRateLimiter`): instances sharing a database
/// together allow a limit once. Needs `CHIRP_TEST_POSTGRES_URL` (required in CI).
@Suite("Rate limits shared by instances on PostgreSQL", .serialized)
struct SharedRateLimitTests {
    static let enabled = TestDatabase.postgresAdminURL != nil || ProcessInfo.processInfo.environment["CI"] != nil
    static let skipReason: Comment =
        "needs CHIRP_TEST_POSTGRES_URL (scripts/postgres-test-cluster); skipping the shared rate-limit tests"

    static func withStorage(_ body: (PostgresStorage, PostgresStorage) async throws -> Void) async throws {
        let settings = try #require(
            TestDatabase.freshPostgresSettings(poolSize: 2), "CHIRP_TEST_POSTGRES_URL is required in CI")
        try await TestDatabase.create(settings)
        var logger = Logger(label: "chirp.test")
        logger.logLevel = .critical
        do {
            // Two pools on one database, as two instances have.
            let first = try await PostgresStorage.open(settings: settings, logger: logger)
            let second = try await PostgresStorage.open(settings: settings, logger: logger)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await first.client.run() }
                group.addTask { await second.client.run() }
                try await body(first, second)
                group.cancelAll()
            }
        } catch {
            await TestDatabase.drop(settings)
            throw error
        }
        await TestDatabase.drop(settings)
    }

    @Test(.enabled(if: enabled, skipReason))
    func twoLimitersOnOneDatabaseAllowTheLimitOnceAndSayHowLongToWait() async throws {
        try await Self.withStorage { first, second in
            // At the start of a minute.
            let clock = TestWallClock(999_999_960_000)
            let limiters = [
                SharedRateLimiter(store: first, now: clock.read), SharedRateLimiter(store: second, now: clock.read),
            ]
            let rule = RateLimitRule("tweets", RateLimit(count: 5, window: .seconds(60)))
            var allowed = 0
            for index in 0..<12 where try await limiters[index % 2].acquire(rule, key: "7") == nil { allowed += 1 }
            #expect(allowed == 5)
            // Another key and another rule count apart.
            #expect(try await limiters[1].acquire(rule, key: "8") == nil)
            #expect(try await limiters[0].acquire(RateLimitRule("follows", rule.limit), key: "7") == nil)
            // Full at the start of the window: the next window, once most of this one slid out.
            #expect(try await limiters[0].acquire(rule, key: "7") == 60 + 12)
            // 90 s on, 5 × 0.5 slid in from the previous window: 2 more fit, not 3.
            clock.advance(by: 90_000)
            #expect(try await limiters[0].acquire(rule, key: "7") == nil)
            #expect(try await limiters[1].acquire(rule, key: "7") == nil)
            #expect(try await limiters[0].acquire(rule, key: "7") != nil)
            // Counters whose windows can no longer count are swept.
            clock.advance(by: 300_000)
            #expect(try await limiters[0].acquire(rule, key: "9") == nil)
            // The sweep runs beside the request that found it due: wait for it (bounded).
            let count = {
                try await first.read { scope in
                    try await scope.value("SELECT count(*) FROM rate_limit_counters", as: Int64.self)
                }
            }
            var left = try await count()
            let deadline = ContinuousClock.now + .seconds(60)
            while left != 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                left = try await count()
            }
            #expect(left == 1)
        }
    }

    @Test(.enabled(if: enabled, skipReason))
    func batchesSpareTheRoundTripAndNeverAllowMoreThanTheLimit() async throws {
        try await Self.withStorage { first, second in
            let clock = TestWallClock(999_999_960_000)
            let stores = [CountingStore(first), CountingStore(second)]
            let limiters = stores.map { SharedRateLimiter(store: $0, now: clock.read) }
            let rule = RateLimitRule.frequent("messages", RateLimit(count: 200, window: .seconds(900)))
            #expect(rule.batch == 10)
            var allowed = 0
            for index in 0..<300 {
                if try await limiters[(index / 7) % 2].acquire(rule, key: "1") == nil { allowed += 1 }
                if index == 149 {
                    // Far from the limit, one database round trip per batch of 10 (and per
                    // switch of instance, which starts a batch of its own).
                    let trips = stores.map(\.reservations).reduce(0, +)
                    #expect(trips <= 150 / 10 + 2, "\(trips) round trips for 150 sends")
                }
            }
            // At most the limit; at most one unspent batch short of it.
            #expect(allowed <= 200 && allowed >= 200 - 2 * (rule.batch - 1), "\(allowed)")
            let counted = try await first.read { scope in
                try await scope.value("SELECT count FROM rate_limit_counters WHERE key = 'messages:1'", as: Int64.self)
            }
            #expect(counted ?? 0 <= 200)
            // A released unit goes back to the instance's reserve: spent again with no refusal.
            limiters[0].release(rule, key: "1")
            #expect(try await limiters[0].acquire(rule, key: "1") == nil)
        }
    }

    /// Two `chirp serve` processes on one database: tweets and accounts alternate between
    /// them, and together they allow each limit once.
    @Test(.enabled(if: enabled, skipReason))
    func twoServerInstancesTogetherAllowEachLimitOnce() async throws {
        let settings = try #require(TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI")
        try await TestDatabase.create(settings)
        let arguments = [
            "--database", settings.url, "--db-pool-size", "4", "--tweet-limit", "3/1h", "--account-limit", "4/1h",
            "--message-limit", "3/1h",
        ]
        let first = try await ServerProcess(arguments: arguments)
        let second = try await ServerProcess(arguments: arguments)
        let apis = [first.api, second.api]
        var created: [Int] = []
        for (index, name) in ["ann", "bea", "cyd", "dee", "eve", "fay"].enumerated() {
            created.append(try await RateLimitTests.register(apis[index % 2], name).status)
        }
        #expect(created == [201, 201, 201, 201, 429, 429])
        let ann = try await apis[0].login("ann").decode(AuthResponse.self)
        let session = Session(user: ann.user, token: ann.token)
        var posted: [Int] = []
        for index in 0..<5 {
            posted.append(try await RateLimitTests.tweet(apis[index % 2], session, "t\(index)").status)
        }
        #expect(posted == [201, 201, 201, 429, 429])
        let bea = try await apis[1].login("bea").decode(AuthResponse.self)
        try await apis[1].follow(Session(user: bea.user, token: bea.token), "ann")
        var sent: [Int] = []
        for index in 0..<5 {
            sent.append(try await apis[index % 2].sendMessage(session, to: "bea", "m\(index)").status)
        }
        #expect(sent == [201, 201, 201, 429, 429])
        try await first.stop(signal: SIGTERM)
        try await second.stop(signal: SIGTERM)
        await TestDatabase.drop(settings)
    }
}

/// A settable wall clock in milliseconds.
final class TestWallClock: Sendable {
    private let value: Mutex<Int64>
    init(_ start: Int64) { value = Mutex(start) }
    var read: @Sendable () -> Int64 { { self.value.withLock { $0 } } }
    func advance(by milliseconds: Int64) { value.withLock { $0 += milliseconds } }
}

/// A `RateCounterStore` that counts the reservations it passes on.
final class CountingStore: RateCounterStore {
    let inner: PostgresStorage
    private let count = Mutex(0)
    init(_ inner: PostgresStorage) { self.inner = inner }
    var reservations: Int { count.withLock { $0 } }

    func reserve(counter: String, window: RateWindow, units: Int, limit: Int) async throws -> Bool {
        count.withLock { $0 += 1 }
        return try await inner.reserve(counter: counter, window: window, units: units, limit: limit)
    }

    func counts(counter: String, window: RateWindow) async throws -> (previous: Int, current: Int) {
        try await inner.counts(counter: counter, window: window)
    }

    func sweepRateCounters(now: Int64) async throws { try await inner.sweepRateCounters(now: now) }
}
