/// The shared counters behind `SharedRateLimiter`: one row per counter and fixed window
/// (PostgreSQL: `rate_limit_counters`, in `PostgresStorage+RateLimits`).
protocol RateCounterStore: Sendable {
    /// Adds `units` to `counter` in `window` if the sliding estimate stays within `limit`,
    /// atomically across instances; whether it did.
    func reserve(counter: String, window: RateWindow, units: Int, limit: Int) async throws -> Bool
    /// The counts of `window` and the one before it.
    func counts(counter: String, window: RateWindow) async throws -> (previous: Int, current: Int)
    /// Deletes counters whose windows can no longer count at `now`.
    func sweepRateCounters(now: Int64) async throws
}
