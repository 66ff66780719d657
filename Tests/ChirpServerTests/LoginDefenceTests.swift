import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// The login defence (issue 36): guesses are limited per (username, client address) and per
/// address, and slowed per username, so a stranger never locks the owner out; the throttle's
/// state stays bounded whatever usernames are sent. Over real HTTP, client addresses forwarded
/// by a trusted proxy (the test's own loopback), on SQLite and PostgreSQL.
@Suite("Login defence")
struct LoginDefenceTests {
    static func login(_ api: APIHarness, _ username: String, _ password: String, from client: String? = nil)
        async throws -> Reply
    {
        try await api.send(
            .POST, "/v1/sessions", json: LoginRequest(username: username, password: password),
            headers: client.map { [("X-Forwarded-For", $0)] } ?? [])
    }

    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        TestServer.configuration {
            $0.trustedProxies = [AddressRange("127.0.0.1/32")!]
            $0.loginFailureLimit = 3
            $0.loginSlowdown = .milliseconds(20)
            adjust(&$0)
        }
    }

    @Test func aStrangerCannotLockTheOwnerOut() async throws {
        try await TestServer.run(Self.configuration()) { api in
            let alice = try await api.register("alice")
            // A stranger guesses from one address: three failures, then that address is refused.
            for _ in 0..<3 {
                #expect(try await Self.login(api, "alice", "guess guess", from: "198.51.100.1").status == 401)
            }
            let refused = try await Self.login(api, "alice", "guess guess", from: "198.51.100.1")
            #expect(refused.status == 429 && refused.headers.first(name: "Retry-After") != nil)
            #expect(refused.text.contains("for this username from this address"))
            // … and from many more: slowed, never refused.
            for host in 2...12 {
                #expect(try await Self.login(api, "alice", "guess guess", from: "198.51.100.\(host)").status == 401)
            }
            // The owner, from their own address, gets in, changes the password and may delete.
            #expect(try await Self.login(api, "alice", "correct horse", from: "203.0.113.9").status == 201)
            #expect(try await Self.login(api, "ALICE", "correct horse").status == 201)
            let changed = try await api.send(
                .PUT, "/v1/me/password", token: alice.token,
                json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple"))
            #expect(changed.status == 204)
            // Even the right password is refused to the guessing address for now.
            #expect(try await Self.login(api, "alice", "battery staple", from: "198.51.100.1").status == 429)
        }
    }

    @Test func anAddressIsLimitedWhateverTheUsernamesAndIPv6CountsBy64() async throws {
        try await TestServer.run(Self.configuration { $0.loginAddressFailureLimit = 4 }) { api in
            _ = try await api.register("alice")
            let names = ["alice", "nobody1", String(repeating: "x", count: 60_000), "b@d name"]
            for name in names {
                #expect(try await Self.login(api, name, "guess guess", from: "198.51.100.7").status == 401)
            }
            let refused = try await Self.login(api, "nobody2", "guess guess", from: "198.51.100.7")
            #expect(refused.status == 429 && refused.text.contains("from this address"))
            #expect(try await Self.login(api, "nobody2", "guess guess", from: "198.51.100.8").status == 401)
            // One IPv6 /64 is one client.
            for host in 1...4 {
                #expect(
                    try await Self.login(api, "nobody\(host)", "guess guess", from: "2001:db8:1:2::\(host)").status
                        == 401)
            }
            #expect(try await Self.login(api, "nobody9", "guess guess", from: "2001:db8:1:2:ffff::9").status == 429)
            #expect(try await Self.login(api, "nobody9", "guess guess", from: "2001:db8:1:3::1").status == 401)
            #expect(try await Self.login(api, "alice", "correct horse", from: "198.51.100.8").status == 201)
        }
    }

    @Test func pastTheUsernamesFailuresEveryAttemptWaitsButTheRightPasswordGetsIn() async throws {
        try await TestServer.run(Self.configuration { $0.loginSlowdown = .milliseconds(300) }) { api in
            _ = try await api.register("alice")
            for host in 1...3 {
                #expect(try await Self.login(api, "alice", "guess guess", from: "198.51.100.\(host)").status == 401)
            }
            let start = ContinuousClock.now
            #expect(try await Self.login(api, "alice", "correct horse").status == 201)
            #expect(ContinuousClock.now - start >= .milliseconds(300), "slowed down")
            // Another username is not.
            _ = try await api.register("bob")
            #expect(try await Self.login(api, "bob", "correct horse").status == 201)
        }
    }

    @Test(.enabled(if: !TestDatabase.usesPostgres, "the in-memory tables are SQLite's (one process)"))
    func theThrottleHoldsAtMostItsCapacityWhateverIsSent() async throws {
        var configuration = Self.configuration {
            $0.loginAddressFailureLimit = 100_000
            $0.loginThrottleCapacity = 40
        }
        configuration.dataDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        let services = ServerServices(configuration: configuration, storage: storage)
        try await TestServer.run(services: services) { api in
            _ = try await api.register("alice")
            let long = String(repeating: "y", count: 60_000)
            for index in 0..<150 {
                let name = index % 3 == 0 ? long + String(index) : "u\(UInt32.random(in: 0...UInt32.max))"
                #expect(
                    try await Self.login(api, name, "guess guess", from: "198.51.\(index / 200).\(index % 200)").status
                        == 401)
            }
            let limiter = try #require(services.limits.limiter as? MemoryRateLimiter)
            let throttle = services.accounts.loginThrottle
            for rule in [throttle.pair, throttle.address, throttle.username] {
                #expect(limiter.keyCount(rule) <= 40, "\(rule.name): \(limiter.keyCount(rule))")
            }
            #expect(try await Self.login(api, "alice", "correct horse").status == 201)
        }
    }
}
