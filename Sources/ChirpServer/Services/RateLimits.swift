import ChirpModels

/// The limits of API.md "Limits" as the services apply them: which rule counts what, under
/// which key, and the 429 `rate_limited` (with `Retry-After`) past it. Counting is the
/// `RateLimiter`'s: in memory with SQLite, shared by every instance with PostgreSQL. Off
/// (every call allowed) with `--no-rate-limits`.
struct RateLimits: Sendable {
    let limiter: any RateLimiter
    let enabled: Bool
    /// Accounts created per client address.
    let accounts: RateLimitRule
    /// Direct messages per sender.
    let messages: RateLimitRule
    /// Tweets per author.
    let tweets: RateLimitRule
    /// Follows per follower.
    let follows: RateLimitRule
    /// Reactions per user.
    let reactions: RateLimitRule
    /// Client log batches per user.
    let clientLogs: RateLimitRule
    /// Reports per reporter.
    let reports: RateLimitRule
    /// Data exports started per user.
    let exports: RateLimitRule
    /// Group changes per actor (create, rename, add, remove, admins, accept, decline).
    let groupChanges: RateLimitRule
    /// Typing notices per user, direct and group.
    let typing: RateLimitRule

    init(configuration: ServerConfiguration, limiter: any RateLimiter) {
        self.limiter = limiter
        self.enabled = configuration.rateLimitsEnabled
        accounts = RateLimitRule("accounts", configuration.accountCreationLimit)
        messages = .frequent(
            "messages", RateLimit(count: configuration.messageRateLimit, window: configuration.messageRateWindow))
        tweets = RateLimitRule("tweets", configuration.tweetLimit)
        follows = RateLimitRule("follows", configuration.followLimit)
        reactions = RateLimitRule("reactions", configuration.reactionLimit)
        clientLogs = RateLimitRule("client-logs", configuration.clientLogLimit)
        reports = RateLimitRule("reports", configuration.reportLimit)
        exports = RateLimitRule("exports", configuration.exportLimit)
        groupChanges = RateLimitRule("group-changes", configuration.groupChangeLimit)
        typing = .frequent("typing", configuration.typingLimit)
    }

    /// Limits that allow everything (services built without a configuration, in tests).
    static let off = RateLimits(
        configuration: {
            var off = ServerConfiguration()
            off.rateLimitsEnabled = false
            return off
        }(), limiter: MemoryRateLimiter())

    /// Counts one event of `rule` for `key`, or throws the 429 whose message is `refusal`
    /// followed by "; try again in …".
    func take(_ rule: RateLimitRule, key: String, refusal: String) async throws {
        guard enabled, let wait = try await limiter.acquire(rule, key: key) else { return }
        throw Self.tooMany(refusal, wait: wait)
    }

    /// Takes back an event `take` counted (the write was a replay, or failed).
    func giveBack(_ rule: RateLimitRule, key: String) {
        if enabled { limiter.release(rule, key: key) }
    }

    /// One idempotent send (a direct or a group message) under the sender's message limit,
    /// `key`: past the limit, a retry of what is stored already (`stored`, asked only then)
    /// is answered with it, anything else refused with a 429; a write that fails, finds
    /// nothing (nil) or finds the send already stored gives its count back.
    @inline(__always)
    func send(
        key: String, stored: () async throws -> Message?, write: () async throws -> WriteOutcome<Message>?
    ) async throws -> WriteOutcome<Message>? {
        if enabled, let wait = try await limiter.acquire(messages, key: key) {
            if let existing = try await stored() { return WriteOutcome(value: existing, created: false) }
            throw Self.tooMany("You have sent too many messages", wait: wait)
        }
        let outcome: WriteOutcome<Message>?
        do {
            outcome = try await write()
        } catch {
            giveBack(messages, key: key)
            throw error
        }
        if outcome?.created != true { giveBack(messages, key: key) }
        return outcome
    }

    /// Counts one group change by `viewer` (429 past `groupChanges`).
    func takeGroupChange(_ viewer: Viewer) async throws {
        try await take(groupChanges, key: String(viewer.id), refusal: "You have changed groups too many times")
    }

    /// Counts one typing notice by `viewer` (429 past `typing`).
    func takeTyping(_ viewer: Viewer) async throws {
        try await take(typing, key: String(viewer.id), refusal: "You have sent too many typing notices")
    }

    /// The one call the reaction service makes before adding a reaction.
    func takeReaction(_ viewer: Viewer) async throws {
        try await take(reactions, key: String(viewer.id), refusal: "You have reacted too many times")
    }

    static func tooMany(_ refusal: String, wait: Int) -> APIError {
        APIError(
            .tooManyRequests, APIErrorCode.rateLimited, "\(refusal); try again in \(phrase(seconds: wait)).",
            retryAfter: wait)
    }

    /// A wait as people say it: seconds up to two minutes, then minutes up to two hours, then hours.
    static func phrase(seconds: Int) -> String {
        if seconds < 120 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        if seconds < 7_200 { return "\((seconds + 59) / 60) minutes" }
        return "\((seconds + 3_599) / 3_600) hours"
    }
}
