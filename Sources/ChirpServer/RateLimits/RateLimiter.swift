/// Counts events against `RateLimitRule`s, per key (a user id, a client address). Two
/// implementations: `MemoryRateLimiter` (one process: SQLite) and `SharedRateLimiter`
/// (counters in PostgreSQL, so every instance on the database counts together).
protocol RateLimiter: Sendable {
    /// Records an event for `key` if `rule` allows one now; otherwise the seconds until it will.
    func acquire(_ rule: RateLimitRule, key: String) async throws -> Int?
    /// Takes back an event `acquire` recorded (the write turned out to be a replay or failed).
    func release(_ rule: RateLimitRule, key: String)
}
