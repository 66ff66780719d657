import ChirpPush
import Testing

/// The backoff between attempts: growing, jittered, capped, and over within the message's day.
@Suite("Push retry policy")
struct PushRetryPolicyTests {
    let policy = PushRetryPolicy.standard

    @Test func eachWaitIsBetweenHalfAndAllOfTheBackoffWhichGrowsToItsCap() {
        let minutes = [1, 3, 9, 27, 81, 243, 360]
        for (index, expected) in minutes.enumerated() {
            let attempt = index + 1
            #expect(policy.backoff(afterAttempt: attempt) == .seconds(expected * 60))
            let shortest = policy.delay(afterAttempt: attempt, elapsed: .zero, jitter: 0)
            let longest = policy.delay(afterAttempt: attempt, elapsed: .zero, jitter: 1)
            #expect(shortest == .seconds(expected * 30))
            #expect(longest == .seconds(expected * 60))
            for _ in 0..<20 {
                let random = policy.delay(afterAttempt: attempt, elapsed: .zero)
                #expect(random.map { $0 >= .seconds(expected * 30) && $0 <= .seconds(expected * 60) } == true)
            }
        }
        #expect(policy.backoff(afterAttempt: 30) == .seconds(6 * 3600))
    }

    @Test func eightAttemptsInAllAndAllWithinADay() {
        var elapsed = Duration.zero
        var attempts = 1
        while let wait = policy.delay(afterAttempt: attempts, elapsed: elapsed, jitter: 1) {
            elapsed += wait
            attempts += 1
        }
        #expect(attempts == 8)
        #expect(elapsed <= .seconds(13 * 3600))
        #expect(policy.delay(afterAttempt: 0, elapsed: .zero, jitter: 0) == nil)
    }

    @Test func retryAfterIsALowerBoundUnlessItRunsPastTheDay() {
        #expect(policy.delay(afterAttempt: 1, elapsed: .zero, retryAfter: .seconds(600), jitter: 0) == .seconds(600))
        #expect(policy.delay(afterAttempt: 1, elapsed: .zero, retryAfter: .seconds(5), jitter: 0) == .seconds(30))
        #expect(policy.delay(afterAttempt: 2, elapsed: .seconds(3600), retryAfter: .seconds(86_400), jitter: 0) == nil)
        #expect(policy.delay(afterAttempt: 6, elapsed: .seconds(86_000), jitter: 0) == nil)
    }
}
