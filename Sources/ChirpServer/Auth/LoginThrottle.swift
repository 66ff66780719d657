import ChirpModels

/// The defence of password checks (login, password change, account deletion) against
/// guessing, which never refuses the owner's right password from the owner's own address:
///
/// - per (username, client address): `pair` failures in a window, then 429 for that pair;
/// - per client address (an IPv6 client by its /64), whatever the usernames: `address`
///   failures, then 429 for that address;
/// - per username from anywhere: past `username` failures each attempt waits `slowdown`
///   before its check (a slow-down, not a lock: a guesser from many addresses pays time, the
///   owner waits a moment and gets in).
///
/// An attempt takes one unit of each before the password is checked (so concurrent guesses
/// count too) and gives them back when it succeeds, so only failures add up. A name that
/// breaks the username rule costs a unit of its address only: no state is ever keyed by it.
/// Counting is the `RateLimiter`'s: in memory with a bounded table per rule (SQLite), in the
/// shared counters with PostgreSQL, so every instance counts together. On whatever
/// `--no-rate-limits` says, as the login throttle always was.
struct LoginThrottle: Sendable {
    let limiter: any RateLimiter
    let pair: RateLimitRule
    let address: RateLimitRule
    let username: RateLimitRule
    let slowdown: Duration

    /// The units one attempt took, given back by `succeeded`.
    struct Attempt: Sendable {
        fileprivate var taken: [(rule: RateLimitRule, key: String)]
    }

    init(configuration: ServerConfiguration, limiter: any RateLimiter) {
        let window = configuration.loginFailureWindow
        let capacity = configuration.loginThrottleCapacity
        self.limiter = limiter
        pair = RateLimitRule(
            "login-pair", RateLimit(count: configuration.loginFailureLimit, window: window), capacity: capacity)
        address = RateLimitRule(
            "login-address", RateLimit(count: configuration.loginAddressFailureLimit, window: window),
            capacity: capacity)
        username = RateLimitRule(
            "login-user", RateLimit(count: configuration.loginFailureLimit, window: window), capacity: capacity)
        slowdown = configuration.loginSlowdown
    }

    /// Counts an attempt to check `name`'s password from `client`, or throws 429 when its
    /// address, or this username from this address, has failed too often; waits first when
    /// the username has.
    func begin(username name: String, from client: ClientAddress?) async throws -> Attempt {
        let addressKey = client?.limitKey ?? "local"
        if let wait = try await limiter.acquire(address, key: addressKey) {
            throw RateLimits.tooMany("Too many failed logins from this address", wait: wait)
        }
        var attempt = Attempt(taken: [(address, addressKey)])
        guard Validation.isPossibleUsername(name) else { return attempt }
        let userKey = Validation.usernameKey(name)
        let pairKey = userKey + "@" + addressKey
        if let wait = try await limiter.acquire(pair, key: pairKey) {
            succeeded(attempt)  // not tried: the address's unit goes back
            throw RateLimits.tooMany("Too many failed logins for this username from this address", wait: wait)
        }
        attempt.taken.append((pair, pairKey))
        if try await limiter.acquire(username, key: userKey) == nil {
            attempt.taken.append((username, userKey))
        } else {
            try await Task.sleep(for: slowdown)
        }
        return attempt
    }

    /// The attempt's password was right: its units go back.
    func succeeded(_ attempt: Attempt) {
        for (rule, key) in attempt.taken { limiter.release(rule, key: key) }
    }
}
