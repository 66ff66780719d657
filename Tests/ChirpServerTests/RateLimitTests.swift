import ChirpModels
import ChirpTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChirpServer

/// API.md "Limits" beyond connections: accounts per client address, tweets, follows and
/// reactions per user, each a 429 `rate_limited` with `Retry-After` past its count and not
/// before; off with `--no-rate-limits`. On SQLite and (with `CHIRP_TEST_DATABASE=postgres`)
/// PostgreSQL, where the counters are shared by every instance.
@Suite("Rate limits")
struct RateLimitTests {
    static func register(_ api: APIHarness, _ name: String, forwardedFor client: String? = nil) async throws -> Reply {
        try await api.send(
            .POST, "/v1/accounts", json: RegisterRequest(username: name, password: "correct horse", displayName: nil),
            headers: client.map { [("X-Forwarded-For", $0)] } ?? [])
    }

    static func tweet(_ api: APIHarness, _ author: Session, _ id: String, text: String? = nil) async throws -> Reply {
        try await api.send(.PUT, "/v1/tweets/\(id)", token: author.token, json: TextBody(text: text ?? id))
    }

    /// A 429 `rate_limited` whose `Retry-After` is a whole number of seconds of at most two
    /// `window`s (PostgreSQL's estimate of two fixed windows may wait into the next one), and
    /// whose message contains `words`.
    static func isLimited(_ reply: Reply, saying words: String, within window: Int) -> Bool {
        guard reply.status == 429, reply.errorCode == "rate_limited",
            let wait = reply.headers.first(name: "Retry-After").flatMap(Int.init)
        else { return false }
        return (1...2 * window).contains(wait) && reply.text.contains(words)
    }

    @Test func accountCreationIsLimitedPerClientAddress() async throws {
        let configuration = TestServer.configuration {
            $0.accountCreationLimit = RateLimit(count: 2, window: .seconds(3_600))
        }
        try await TestServer.run(configuration) { api async throws in
            #expect(try await Self.register(api, "ann").status == 201)
            // A taken name creates nothing and is not counted.
            #expect(try await Self.register(api, "ann").status == 409)
            #expect(try await Self.register(api, "bea").status == 201)
            let third = try await Self.register(api, "cyd")
            #expect(
                Self.isLimited(
                    third, saying: "Too many accounts created from this address; try again in", within: 3_600),
                "\(third.text)")
            #expect(third.text.contains("minutes"))
            // Logging in is not account creation.
            #expect(try await api.login("ann").status == 201)
        }
    }

    @Test func accountCreationCountsTheAddressATrustedProxyForwards() async throws {
        let configuration = TestServer.configuration {
            $0.accountCreationLimit = RateLimit(count: 1, window: .seconds(3_600))
            $0.trustedProxies = [AddressRange("127.0.0.1/32")!]
        }
        try await TestServer.run(configuration) { api async throws in
            #expect(try await Self.register(api, "ann", forwardedFor: "198.51.100.7").status == 201)
            #expect(try await Self.register(api, "bea", forwardedFor: "198.51.100.7").status == 429)
            // Another client behind the same proxy has its own count.
            #expect(try await Self.register(api, "cyd", forwardedFor: "198.51.100.8").status == 201)
            // The client may write anything on the left; the proxy's hop on the right counts.
            #expect(try await Self.register(api, "dee", forwardedFor: "203.0.113.1, 198.51.100.7").status == 429)
        }
        // From an untrusted peer the header is ignored: the connection's address counts.
        let untrusted = TestServer.configuration {
            $0.accountCreationLimit = RateLimit(count: 1, window: .seconds(3_600))
        }
        try await TestServer.run(untrusted) { api async throws in
            #expect(try await Self.register(api, "ann", forwardedFor: "198.51.100.7").status == 201)
            #expect(try await Self.register(api, "bea", forwardedFor: "198.51.100.8").status == 429)
        }
    }

    @Test func tweetsAreLimitedPerAuthorAndReplaysAreNotCounted() async throws {
        let configuration = TestServer.configuration {
            $0.tweetLimit = RateLimit(count: 2, window: .seconds(3 * 3_600))
        }
        try await TestServer.run(configuration) { api async throws in
            let ann = try await api.register("ann")
            let bea = try await api.register("bea")
            #expect(try await Self.tweet(api, ann, "t1").status == 201)
            #expect(try await Self.tweet(api, ann, "t1").status == 200)  // a replay
            #expect(try await Self.tweet(api, ann, "t1", text: "other").status == 409)
            #expect(try await Self.tweet(api, ann, "t2").status == 201)
            let third = try await Self.tweet(api, ann, "t3")
            #expect(
                Self.isLimited(third, saying: "You have posted too many tweets; try again in", within: 3 * 3_600),
                "\(third.text)")
            #expect(try await Self.tweet(api, bea, "t1").status == 201)
        }
    }

    @Test func followsAreLimitedPerFollower() async throws {
        let configuration = TestServer.configuration { $0.followLimit = RateLimit(count: 2, window: .seconds(86_400)) }
        try await TestServer.run(configuration) { api async throws in
            let ann = try await api.register("ann")
            for name in ["bea", "cyd", "dee"] { _ = try await api.register(name) }
            #expect(try await api.send(.PUT, "/v1/users/bea/follow", token: ann.token).status == 204)
            // Following again changes nothing and is not counted; an unknown user neither.
            #expect(try await api.send(.PUT, "/v1/users/bea/follow", token: ann.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/users/nobody/follow", token: ann.token).status == 404)
            #expect(try await api.send(.PUT, "/v1/users/cyd/follow", token: ann.token).status == 204)
            let third = try await api.send(.PUT, "/v1/users/dee/follow", token: ann.token)
            #expect(
                Self.isLimited(third, saying: "You have followed too many accounts; try again in", within: 86_400),
                "\(third.text)")
        }
    }

    @Test func noRateLimitsTurnsThemAllOff() async throws {
        let configuration = TestServer.configuration {
            $0.rateLimitsEnabled = false
            $0.accountCreationLimit = RateLimit(count: 1, window: .seconds(3_600))
            $0.tweetLimit = RateLimit(count: 1, window: .seconds(3_600))
            $0.followLimit = RateLimit(count: 1, window: .seconds(3_600))
        }
        try await TestServer.run(configuration) { api async throws in
            let ann = try await api.register("ann")
            _ = try await api.register("bea")
            _ = try await api.register("cyd")
            for name in ["bea", "cyd"] {
                #expect(try await api.send(.PUT, "/v1/users/\(name)/follow", token: ann.token).status == 204)
            }
            for id in ["t1", "t2", "t3"] { #expect(try await Self.tweet(api, ann, id).status == 201) }
        }
    }

    /// Reactions arrive with another issue; their service makes this one call.
    @Test func theReactionLimitIsTheOneCallTheReactionServiceMakes() async throws {
        var configuration = ServerConfiguration()
        configuration.reactionLimit = RateLimit(count: 3, window: .seconds(3_600))
        let limits = RateLimits(configuration: configuration, limiter: MemoryRateLimiter())
        let ann = Viewer(id: 1, username: "ann", tokenHash: [1])
        for _ in 0..<3 { try await limits.takeReaction(ann) }
        let refused = await #expect(throws: APIError.self) { try await limits.takeReaction(ann) }
        #expect(refused?.status == .tooManyRequests && refused?.code == APIErrorCode.rateLimited)
        #expect((1...3_600).contains(refused?.retryAfter ?? 0))
        #expect(refused?.message.hasPrefix("You have reacted too many times; try again in ") == true)
        try await limits.takeReaction(Viewer(id: 2, username: "bea", tokenHash: [2]))
        // The default is API.md's 1,000 per hour.
        #expect(ServerConfiguration().reactionLimit == RateLimit(count: 1_000, window: .seconds(3_600)))
        #expect(try await RateLimits.off.takeReaction(ann) == ())
    }

    @Test func theDefaultsAreAPIMdsAndTheFlagsParse() {
        let defaults = ServerConfiguration()
        #expect(defaults.accountCreationLimit.description == "10/1h")
        #expect(defaults.tweetLimit.description == "300/3h")
        #expect(defaults.followLimit.description == "400/1d")
        #expect(defaults.messageRateLimit == 200 && defaults.messageRateWindow == .seconds(900))
        #expect(RateLimit("5/30s") == RateLimit(count: 5, window: .seconds(30)))
        #expect(RateLimit("200/15m") == RateLimit(count: 200, window: .seconds(900)))
        #expect(RateLimit("7/90") == RateLimit(count: 7, window: .seconds(90)))
        for bad in ["", "10", "0/1h", "10/0", "10/1w", "x/1h", "10/h", "-1/1h", "10/1h/2"] {
            #expect(RateLimit(bad) == nil, "\(bad)")
        }
        #expect(RateLimits.phrase(seconds: 1) == "1 second")
        #expect(RateLimits.phrase(seconds: 119) == "119 seconds")
        #expect(RateLimits.phrase(seconds: 121) == "3 minutes")
        #expect(RateLimits.phrase(seconds: 3_600) == "60 minutes")
        #expect(RateLimits.phrase(seconds: 10_000) == "3 hours")
    }

    /// The in-memory limiter (SQLite's): an exact sliding window, expiring from the front.
    @Test func theMemoryLimiterSlidesExactly() {
        let base = ContinuousClock.now
        let offset = Mutex<Duration>(.zero)
        let limiter = SlidingWindowLimiter(limit: 3, window: .seconds(10), now: { base + offset.withLock { $0 } })
        func at(_ seconds: Int) { offset.withLock { $0 = .seconds(seconds) } }
        for second in [0, 1, 2] {
            at(second)
            #expect(limiter.acquire("k") == nil)
        }
        #expect(limiter.acquire("k") == 9)  // the first frees at 10 (whole seconds, rounded up past it)
        #expect(limiter.acquire("other") == nil)
        at(10)
        #expect(limiter.acquire("k") == nil)
        #expect(limiter.acquire("k") == 2)
        limiter.release("k")
        #expect(limiter.acquire("k") == nil)
        // Many events in one window, then all of them slide out.
        let busy = SlidingWindowLimiter(limit: 1_000, window: .seconds(10), now: { base + offset.withLock { $0 } })
        at(0)
        for _ in 0..<1_000 { #expect(busy.acquire("k") == nil) }
        #expect(busy.acquire("k") != nil)
        at(10)
        for _ in 0..<1_000 { #expect(busy.acquire("k") == nil) }
        #expect(busy.retryAfter("k") == 11)
    }

    /// What a limit costs a request: a key whose window holds many events (a benchmark's
    /// sender) still costs O(1) per event, not a scan of the window. Compared with the same key
    /// whose window holds one event at a time (the best of three each, alternating), so a loaded
    /// machine slows both: a scan of 20,000 events on average would cost dozens of times more.
    @Test func anEventCostsTheSameHoweverFullTheWindowIs() async throws {
        func perEvent(window: Duration) async throws -> Duration {
            var configuration = ServerConfiguration()
            configuration.messageRateLimit = 1_000_000_000
            configuration.messageRateWindow = window
            let limits = RateLimits(configuration: configuration, limiter: MemoryRateLimiter())
            let count = 40_000
            let started = ContinuousClock.now
            for _ in 0..<count { try await limits.take(limits.messages, key: "sender", refusal: "") }
            return (ContinuousClock.now - started) / count
        }
        var full = Duration.seconds(1)
        var nearlyEmpty = Duration.seconds(1)
        for _ in 0..<3 {
            full = min(full, try await perEvent(window: .seconds(3_600)))
            nearlyEmpty = min(nearlyEmpty, try await perEvent(window: .nanoseconds(1)))
        }
        print("rate limit: \(full) per event with 40,000 in the window, \(nearlyEmpty) with one (debug build)")
        #expect(full < nearlyEmpty * 5, "\(full) per event with a full window, \(nearlyEmpty) with an empty one")
    }

    /// The sliding estimate of two fixed windows, and when it lets one more through.
    @Test func theSlidingEstimateWaitsUntilEnoughHasSlidOut() {
        // A minute into a 10-minute window.
        let window = RateWindow(now: 3_660_000, length: 600_000)
        #expect(window.start == 3_600_000 && window.previousStart == 3_000_000 && window.expiry == 4_800_000)
        #expect(abs(window.previousWeight - 0.9) < 1e-9)
        // 10 in the previous window, 5 in this one, limit 10: one more fits once the previous
        // window weighs 4 or less, 6 minutes into this one.
        #expect(window.wait(previous: 10, current: 5, limit: 10) == 300)
        // This window is over the limit: in the next one, once half of this one slid out.
        #expect(window.wait(previous: 0, current: 18, limit: 10) == 540 + 300)
        #expect(window.wait(previous: 0, current: 10, limit: 10) == 540 + 60)
        #expect(window.wait(previous: 0, current: 0, limit: 10) == 1)
        #expect(RateWindow(now: -1, length: 1_000).start == -1_000)
    }
}
