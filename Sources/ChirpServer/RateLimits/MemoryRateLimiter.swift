import Synchronization

/// The rate limiter of a single process (SQLite): an exact sliding window per rule and key,
/// in memory (`SlidingWindowLimiter`).
final class MemoryRateLimiter: RateLimiter {
    private let now: @Sendable () -> ContinuousClock.Instant
    private let limiters = Mutex<[String: SlidingWindowLimiter]>([:])

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.now = now
    }

    func acquire(_ rule: RateLimitRule, key: String) async throws -> Int? {
        limiter(rule).acquire(key)
    }

    func release(_ rule: RateLimitRule, key: String) {
        limiter(rule).release(key)
    }

    /// Keys held for `rule` now.
    func keyCount(_ rule: RateLimitRule) -> Int {
        limiter(rule).keyCount
    }

    private func limiter(_ rule: RateLimitRule) -> SlidingWindowLimiter {
        limiters.withLock { table in
            if let limiter = table[rule.name] { return limiter }
            let limiter = SlidingWindowLimiter(
                limit: rule.limit.count, window: rule.limit.window, capacity: rule.capacity, now: now)
            table[rule.name] = limiter
            return limiter
        }
    }
}
