import ChirpModels
import Testing

@testable import ChirpServer

/// The single-instance session cache.
@Suite("Session cache")
struct SessionCacheTests {
    static let session = SessionInfo(userId: 1, username: "alice", expiresAt: Timestamp(millisecondsSince1970: 1))

    @Test func sessionsAreRememberedUntilRemovedOrStale() async throws {
        let cache = SessionCache(capacity: 2, lifetime: .milliseconds(200))
        cache.store(Self.session, for: [1])
        #expect(cache.session(for: [1])?.username == "alice")
        cache.remove([1])
        #expect(cache.session(for: [1]) == nil, "logout forgets at once")
        cache.store(Self.session, for: [2])
        try await Task.sleep(for: .milliseconds(250))
        #expect(cache.session(for: [2]) == nil, "stale entries are read again")
        cache.store(Self.session, for: [3])
        cache.store(Self.session, for: [4])
        cache.store(Self.session, for: [5])
        #expect(cache.session(for: [5]) != nil && cache.session(for: [3]) == nil, "full: starts over")
    }

    @Test func endedSessionsOfAUserAreForgottenTogether() {
        let cache = SessionCache()
        cache.store(Self.session, for: [1])
        cache.store(Self.session, for: [2])
        cache.store(SessionInfo(userId: 2, username: "bob", expiresAt: Self.session.expiresAt), for: [3])
        cache.removeAll(userId: 1)
        #expect(cache.session(for: [1]) == nil && cache.session(for: [2]) == nil)
        #expect(cache.session(for: [3])?.username == "bob", "other users' sessions stay")
    }

    @Test func aCacheOfCapacityZeroHoldsNothing() {
        let cache = SessionCache(capacity: 0)
        cache.store(Self.session, for: [1])
        #expect(cache.session(for: [1]) == nil)
    }

    @Test func tokensAreBase64URLAndNeverLookLikeAnOption() {
        let tokens = (0..<3000).map { _ in SessionTokens.generate() }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.utf8.count == 43 && !$0.hasPrefix("-") })
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(tokens.allSatisfy { $0.allSatisfy(alphabet.contains) })
        #expect(tokens.contains { $0.contains("-") }, "'-' still occurs inside tokens")
    }
}
