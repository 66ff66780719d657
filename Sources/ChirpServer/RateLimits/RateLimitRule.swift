/// A limit as the services apply it: what it counts (`name`, which keeps the counters of
/// different limits apart), its `limit`, and how many units an instance may reserve from a
/// shared counter at once (`batch`; see `SharedRateLimiter`), and how many keys a process
/// counting in memory keeps at most (`capacity`; see `SlidingWindowLimiter`).
struct RateLimitRule: Sendable, Hashable {
    let name: String
    let limit: RateLimit
    let batch: Int
    let capacity: Int

    init(_ name: String, _ limit: RateLimit, batch: Int = 1, capacity: Int = SlidingWindowLimiter.defaultCapacity) {
        self.name = name
        self.limit = limit
        self.batch = max(1, min(batch, limit.count))
        self.capacity = capacity
    }

    /// For a frequent event (a direct message): batches of 5 % of the limit, at most 20, so a
    /// shared counter is asked about once every 20 sends while the limit is far.
    static func frequent(_ name: String, _ limit: RateLimit) -> RateLimitRule {
        RateLimitRule(name, limit, batch: min(20, limit.count / 20))
    }
}
