/// When to try a push again after `PushOutcome.retry`: exponential backoff with jitter, capped,
/// for a bounded number of attempts within the message's lifetime (its `TTL`, a day). Pure: the
/// caller keeps the attempt count and the first attempt's time (in its queue) and supplies the
/// randomness.
public struct PushRetryPolicy: Sendable, Equatable {
    /// The wait after the first failed attempt, before jitter.
    public var firstDelay: Duration
    /// How much each wait grows over the one before.
    public var multiplier: Int
    /// The longest wait, before jitter.
    public var maximumDelay: Duration
    /// Attempts in all, the first one included.
    public var maximumAttempts: Int
    /// No attempt starts later than this after the first one (the message's time to live).
    public var giveUpAfter: Duration

    /// 1, 3, 9, 27, 81, 243 minutes then 6 hours (each less up to half of it at random): eight
    /// attempts within about 12 hours at the most, inside the day a push service keeps a message.
    public static let standard = PushRetryPolicy(
        firstDelay: .seconds(60), multiplier: 3, maximumDelay: .seconds(6 * 3600), maximumAttempts: 8,
        giveUpAfter: .seconds(PushMessage.defaultTimeToLive))

    /// A policy with these bounds.
    public init(
        firstDelay: Duration, multiplier: Int, maximumDelay: Duration, maximumAttempts: Int, giveUpAfter: Duration
    ) {
        self.firstDelay = firstDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.giveUpAfter = giveUpAfter
    }

    /// The wait before the next attempt once attempt number `attempt` (from 1) has failed,
    /// `elapsed` after the first attempt began; nil when it is time to give up. The backoff
    /// keeps a random part of its upper half (`jitter` in 0...1: random, or fixed by a
    /// test); a `Retry-After` the push service gave is a lower bound.
    public func delay(afterAttempt attempt: Int, elapsed: Duration, retryAfter: Duration? = nil, jitter: Double)
        -> Duration?
    {
        guard attempt >= 1, attempt < maximumAttempts else { return nil }
        let half = backoff(afterAttempt: attempt) / 2
        let halfMilliseconds = half.components.seconds * 1000 + half.components.attoseconds / 1_000_000_000_000_000
        let jittered = half + .milliseconds(Int64((Double(halfMilliseconds) * min(max(jitter, 0), 1)).rounded(.down)))
        let wait = max(jittered, retryAfter ?? .zero)
        guard elapsed + wait <= giveUpAfter else { return nil }
        return wait
    }

    /// The same with a random jitter.
    public func delay(afterAttempt attempt: Int, elapsed: Duration, retryAfter: Duration? = nil) -> Duration? {
        delay(afterAttempt: attempt, elapsed: elapsed, retryAfter: retryAfter, jitter: Double.random(in: 0...1))
    }

    /// The backoff before jitter after attempt `attempt`: `firstDelay` times `multiplier` to the
    /// power `attempt - 1`, at most `maximumDelay`.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        var delay = firstDelay
        for _ in 1..<max(attempt, 1) {
            delay = delay * multiplier
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
