/// How an idempotent call is retried after a transient failure: up to `maxRetries` more
/// attempts, waiting `base × 2^attempt` (capped at `maxDelay`) with jitter, or longer when the
/// server says so in `Retry-After`. A server that cannot be reached at all (no connection) may
/// get fewer attempts than one that answers "busy": `unreachableRetries`.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts after the first; 0 never retries.
    public var maxRetries: Int
    /// Attempts after the first when no connection could be made (`NetworkError.transport`);
    /// `nil`: `maxRetries`. Lets an offline client give up quickly while a busy server (429,
    /// 5xx, timeouts) still gets patience.
    public var unreachableRetries: Int?
    /// The wait before the first retry, doubled for each further one.
    public var baseDelay: Duration
    /// The longest wait between attempts (unless `Retry-After` asks for more).
    public var maxDelay: Duration
    /// Share of the delay that is randomised (0: none, 1: "full jitter").
    public var jitter: Double
    /// The longest `Retry-After` waited for: a server asking for more (a rate limit reached,
    /// "try again in 40 minutes") fails the call at once, so the person sees why.
    public var maxRetryAfter: Duration = .seconds(60)

    /// Creates a policy; `jitter` is clamped to 0…1.
    public init(
        maxRetries: Int, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        jitter: Double = 0.5,
        unreachableRetries: Int? = nil
    ) {
        self.maxRetries = maxRetries
        self.unreachableRetries = unreachableRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
    }

    /// Three retries from 200 ms, capped at 10 s, half of each delay random.
    public static let `default` = RetryPolicy(maxRetries: 3)
    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// How many retries `failure` allows.
    public func retries(after failure: NetworkError) -> Int {
        if case .transport = failure { return unreachableRetries ?? maxRetries }
        return maxRetries
    }

    /// Whether a retry is worth waiting for, given the server's `Retry-After`.
    public func waits(for retryAfter: Duration?) -> Bool {
        retryAfter.map { $0 <= maxRetryAfter } ?? true
    }

    /// The wait before retry number `attempt` (0-based), given a random value in 0..<1 and the
    /// server's `Retry-After`, which is honoured when it asks for longer.
    public func delay(forAttempt attempt: Int, random: Double, retryAfter: Duration?) -> Duration {
        let exponential = baseDelay * Int(1 << min(attempt, 30))
        let capped = min(exponential, maxDelay)
        let randomised = capped * (1 - jitter) + capped * (jitter * random)
        if let retryAfter, retryAfter > randomised { return retryAfter }
        return randomised
    }
}
