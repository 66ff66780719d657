/// The throttle of failed logins per username (API part 1): past `limit` failures within the
/// window, attempts get 429 until enough of them slid out. Counted by the server's
/// `RateLimiter`, so on PostgreSQL every instance sees the same failures (a guesser cannot
/// multiply the limit by the number of instances). Stays on with `--no-rate-limits`.
struct LoginThrottle: Sendable {
    let limiter: any RateLimiter
    let rule: RateLimitRule

    init(limit: Int, window: Duration, limiter: any RateLimiter) {
        self.limiter = limiter
        rule = RateLimitRule("login-failures", RateLimit(count: limit, window: window))
    }

    /// Seconds until `usernameKey` may try again, or nil when it may now.
    func wait(_ usernameKey: String) async throws -> Int? {
        try await limiter.wait(rule, key: usernameKey)
    }

    /// Counts a wrong password for `usernameKey`.
    func recordFailure(_ usernameKey: String) async throws {
        try await limiter.record(rule, key: usernameKey)
    }
}
