import ChirpModels
import ChirpServer
import ChirpTestSupport
import Foundation
import PostgresNIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Several `chirp serve` processes on one PostgreSQL database, behind nginx round-robin on
/// loopback (the configuration in docs/chirp-nginx.conf). In CI PostgreSQL and nginx must be
/// there (`.ci/run` installs and starts them); elsewhere these tests are skipped, saying why.
@Suite("Scale-out: instances on one PostgreSQL behind nginx", .serialized)
struct ScaleOutTests {
    static let required = ProcessInfo.processInfo.environment["CI"] != nil
    static let available = TestDatabase.postgresAdminURL != nil && NginxProcess.binaryPath != nil
    static let skipReason: Comment =
        "needs CHIRP_TEST_POSTGRES_URL and nginx (CI provides both); skipping the scale-out tests"

    /// Two instances on a fresh database, and nginx in front of them.
    struct Cluster {
        let settings: PostgresSettings
        let instances: [ServerProcess]
        let nginx: NginxProcess
        /// Through nginx.
        var api: APIHarness { APIHarness(port: nginx.port) }
    }

    static func withCluster(_ body: (Cluster) async throws -> Void) async throws {
        let settings = try #require(
            TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI: .ci/run sets it")
        try #require(NginxProcess.binaryPath != nil, "nginx is required in CI: .ci/run installs it")
        try await TestDatabase.create(settings)
        do {
            let arguments = ["--database", settings.url, "--db-pool-size", "8", "--no-rate-limits"]
            let first = try await ServerProcess(arguments: arguments)
            let second = try await ServerProcess(arguments: arguments)
            let nginx = try await NginxProcess(port: NginxProcess.freePort(), upstreams: [first.port, second.port])
            defer { nginx.stop() }
            try await body(Cluster(settings: settings, instances: [first, second], nginx: nginx))
        } catch {
            await TestDatabase.drop(settings)
            throw error
        }
        await TestDatabase.drop(settings)
    }

    /// The value of a metric on one instance (read directly, not through nginx).
    static func metric(_ name: String, on instance: ServerProcess) async throws -> Double {
        let text = try await instance.api.send(.GET, "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Sends through nginx, retrying with the same client id until the server answers 2xx.
    static func sendReliably(
        _ api: APIHarness, _ from: Session, to peer: String, _ text: String, clientId: String = UUID().uuidString
    ) async throws {
        for _ in 0..<50 {
            if let reply = try? await api.sendMessage(from, to: peer, text, clientId: clientId),
                (200..<300).contains(reply.status)
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("message \(clientId) was never acknowledged")
    }

    /// Seqs 1…n without a gap or repeat.
    static func isGapFree(_ seqs: [Int64]) -> Bool {
        seqs == Array(1...Int64(max(seqs.count, 1))).prefix(seqs.count).map { $0 }
    }

    @Test(.enabled(if: available || required, skipReason))
    func usersOnDifferentInstancesExchangeMessagesLive() async throws {
        try await Self.withCluster { cluster in
            let api = cluster.api
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(alice, "bob")
            try await api.follow(bob, "alice")
            let aliceStream = ResumingStream(port: cluster.nginx.port, token: alice.token)
            let bobStream = ResumingStream(port: cluster.nginx.port, token: bob.token)
            let tasks = [Task { await aliceStream.run() }]
            try await Task.sleep(for: .milliseconds(300))
            let moreTasks = [Task { await bobStream.run() }]
            defer { (tasks + moreTasks).forEach { $0.cancel() } }
            #expect(await aliceStream.wait { _ in aliceStream.connections > 0 && bobStream.connections > 0 })
            // Round-robin put the two streams on different instances.
            let open = [
                try await Self.metric("chirp_event_streams_open", on: cluster.instances[0]),
                try await Self.metric("chirp_event_streams_open", on: cluster.instances[1]),
            ]
            #expect(open == [1, 1], "one stream on each instance: \(open)")
            #expect(
                aliceStream.attempts == 1 && bobStream.attempts == 1, "each upgrade went through nginx at the first try"
            )

            try await Self.sendReliably(api, alice, to: "bob", "hello from alice")
            #expect(
                await bobStream.wait(timeout: .seconds(5)) { events in
                    events.contains {
                        if case .messageCreated(let m) = $0.payload { m.text == "hello from alice" } else { false }
                    }
                }, "bob sees alice's message live, from the other instance")
            try await Self.sendReliably(api, bob, to: "alice", "hello from bob")
            #expect(
                await aliceStream.wait(timeout: .seconds(5)) { events in
                    events.contains {
                        if case .messageCreated(let m) = $0.payload { m.text == "hello from bob" } else { false }
                    }
                }, "alice sees bob's reply live")
            // nginx's access log (docs/chirp-nginx.conf) keeps paths, never query strings.
            #expect(try await api.send(.GET, "/v1/search/messages?q=whisper", token: alice.token).status == 200)
            let accessLog = cluster.nginx.accessLog
            #expect(
                accessLog.contains("GET /v1/search/messages HTTP/1.1") && !accessLog.contains("whisper"),
                "\(accessLog.suffix(300))")
            // Typing is never stored, yet crosses instances too; try a few times so it reaches
            // bob's instance whichever one nginx picks.
            for _ in 0..<2 {
                #expect(try await api.send(.POST, "/v1/conversations/bob/typing", token: alice.token).status == 204)
            }
            #expect(
                await bobStream.wait(timeout: .seconds(5)) { events in events.contains { $0.type == EventType.typing } }
            )
            #expect(
                Self.isGapFree(aliceStream.stored.compactMap(\.seq))
                    && Self.isGapFree(bobStream.stored.compactMap(\.seq)))
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func aStreamOnTheOtherInstanceSendsTheNotifiedEventsWithoutReadingTheDatabase() async throws {
        try await Self.withCluster { cluster in
            let (sending, streaming) = (cluster.instances[0], cluster.instances[1])
            let alice = try await sending.api.register("alice")
            let bob = try await sending.api.register("bob")
            try await sending.api.follow(bob, "alice")
            let bobStream = ResumingStream(port: streaming.port, token: bob.token)
            let task = Task { await bobStream.run() }
            defer { task.cancel() }
            // The first message shows the stream is open and the other instance's notifications arrive.
            try await Self.sendReliably(sending.api, alice, to: "bob", "first")
            #expect(await bobStream.wait(timeout: .seconds(5)) { _ in bobStream.stored.count == 1 })
            let readsBefore = try await Self.metric("chirp_event_stream_reads_total", on: streaming)
            for n in 0..<10 { try await Self.sendReliably(sending.api, alice, to: "bob", "more \(n)") }
            #expect(await bobStream.wait(timeout: .seconds(5)) { _ in bobStream.stored.count == 11 })
            #expect(bobStream.stored.compactMap(\.seq) == Array(1...11), "every seq once, in order")
            #expect(
                bobStream.stored.last.map {
                    if case .messageCreated(let m) = $0.payload { m.text == "more 9" } else { false }
                } == true)
            let reads = try await Self.metric("chirp_event_stream_reads_total", on: streaming) - readsBefore
            #expect(reads == 0, "the notifications carried the events; the stream read the database \(reads) times")
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func eightWritersAcrossBothInstancesLeaveEveryStreamGapFree() async throws {
        try await Self.withCluster { cluster in
            let api = cluster.api
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            var writers: [Session] = []
            for index in 0..<8 { writers.append(try await api.register("writer\(index)")) }
            // Everyone follows every writer, so writers may message anyone.
            for writer in writers {
                for follower in [alice, bob] + writers where follower.username != writer.username {
                    try await api.follow(follower, writer.username)
                }
            }
            let aliceStream = ResumingStream(port: cluster.nginx.port, token: alice.token)
            let bobStream = ResumingStream(port: cluster.nginx.port, token: bob.token)
            let streams = [Task { await aliceStream.run() }, Task { await bobStream.run() }]
            defer { streams.forEach { $0.cancel() } }

            let perWriter = 30
            let allWriters = writers
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, writer) in allWriters.enumerated() {
                    group.addTask {
                        for n in 0..<perWriter {
                            let peer = [
                                alice.username, bob.username, allWriters[(index + 1) % allWriters.count].username,
                            ][n % 3]
                            try await Self.sendReliably(api, writer, to: peer, "w\(index) #\(n)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Both instances took writes.
            for instance in cluster.instances {
                #expect(try await Self.metric("chirp_messages_sent_total", on: instance) > 0)
            }
            for user in [alice, bob] + writers {
                let seqs = try await api.allEvents(user).compactMap(\.seq)
                #expect(Self.isGapFree(seqs), "\(user.username)'s stream is 1…\(seqs.count) without gaps")
            }
            let toAlice = writers.count * (perWriter / 3)
            let aliceStored = try await api.allEvents(alice).filter { $0.type == EventType.messageCreated }
            #expect(aliceStored.count == toAlice)
            for (stream, user) in [(aliceStream, alice), (bobStream, bob)] {
                let head = try await api.allEvents(user).count
                #expect(
                    await stream.wait { _ in stream.stored.count >= head }, "\(user.username)'s WebSocket caught up")
                #expect(
                    stream.stored.compactMap(\.seq) == Array(1...Int64(head)),
                    "\(user.username)'s live stream has every seq once")
            }
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func clientsOfAKilledInstanceResumeThroughTheOtherWithoutAGap() async throws {
        try await Self.withCluster { cluster in
            let api = cluster.api
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let carol = try await api.register("carol")
            for user in [alice, bob] { try await api.follow(user, "carol") }
            let aliceStream = ResumingStream(port: cluster.nginx.port, token: alice.token)
            let bobStream = ResumingStream(port: cluster.nginx.port, token: bob.token)
            let streams = [Task { await aliceStream.run() }, Task { await bobStream.run() }]
            defer { streams.forEach { $0.cancel() } }
            #expect(await aliceStream.wait { _ in aliceStream.connections > 0 && bobStream.connections > 0 })
            for n in 0..<20 {
                try await Self.sendReliably(api, carol, to: n.isMultiple(of: 2) ? "alice" : "bob", "before \(n)")
            }
            // One of the two streams is on the first instance; kill it mid-traffic.
            let sender = Task {
                for n in 0..<40 {
                    try await Self.sendReliably(api, carol, to: n.isMultiple(of: 2) ? "alice" : "bob", "around \(n)")
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            cluster.instances[0].process.signal(SIGKILL)
            try await sender.value
            for n in 0..<10 {
                try await Self.sendReliably(api, carol, to: n.isMultiple(of: 2) ? "alice" : "bob", "after \(n)")
            }
            for (stream, user) in [(aliceStream, alice), (bobStream, bob)] {
                let stored = try await api.allEvents(user)
                #expect(stored.count == 35, "\(user.username) has every message once")
                #expect(
                    await stream.wait(timeout: .seconds(15)) { _ in stream.stored.count >= stored.count },
                    "\(user.username) caught up")
                #expect(
                    stream.stored.compactMap(\.seq) == Array(1...Int64(stored.count)),
                    "\(user.username): no gap, no repeat")
            }
            #expect(
                aliceStream.connections + bobStream.connections >= 3, "the stream on the killed instance reconnected")
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func aLostNotificationConnectionIsReestablishedAndCaughtUp() async throws {
        try await Self.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let alice = try await first.register("alice")
            let bob = try await second.register("bob")
            try await first.follow(alice, "bob")
            // Alice listens on the first instance; bob writes through the second.
            let aliceStream = ResumingStream(port: cluster.instances[0].port, token: alice.token)
            let task = Task { await aliceStream.run() }
            defer { task.cancel() }
            #expect(await aliceStream.wait { _ in aliceStream.connections > 0 })

            let terminated = try await TestDatabase.withConnection(cluster.settings) { connection, logger in
                var count = 0
                let rows = try await connection.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'chirp-listener' AND datname = current_database()",
                    logger: logger)
                for try await _ in rows { count += 1 }
                return count
            }
            #expect(terminated == 2, "both instances' LISTEN connections were cut")
            _ = try await second.sendMessage(bob, to: "alice", "while reconnecting")
            #expect(
                await aliceStream.wait(timeout: .seconds(5)) { $0.contains { $0.type == EventType.messageCreated } },
                "caught up from the database after reconnecting, long before the 25 s sweep")
            // Listening again: the next message arrives at once.
            let back = await Self.waitForListeners(cluster.settings, count: 2)
            #expect(back)
            let start = ContinuousClock.now
            _ = try await second.sendMessage(bob, to: "alice", "after reconnecting")
            #expect(
                await aliceStream.wait(timeout: .seconds(2)) {
                    $0.filter { $0.type == EventType.messageCreated }.count == 2
                })
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(aliceStream.stored.compactMap(\.seq) == [1, 2], "both messages, once each")
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func anAttachmentOfSeveralMegabytesPassesThroughNginxAndAnOversizedOneGetsChirpsOwn413() async throws {
        try await Self.withCluster { cluster in
            let alice = try await cluster.api.register("alice")
            let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let stored = try await cluster.api.putMedia(alice, "big", bytes)
            #expect(stored.status == 201, "\(stored.status) \(stored.text)")
            let media: Media = try stored.decode()
            #expect(media.size == Int64(bytes.count))
            // Over chirp serve's --max-media-bytes (25 MiB) and under nginx's limit (26m):
            // Chirp's JSON error, not nginx's HTML page.
            let tooLarge = try await cluster.api.putMedia(alice, "too-big", Data(count: (25 << 20) + 1))
            #expect(tooLarge.status == 413)
            #expect(tooLarge.text.contains("media_too_large"), "\(tooLarge.text.prefix(200))")
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func aLogoutOnOneInstanceStopsTheTokenOnAllAtOnce() async throws {
        try await Self.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let alice = try await first.register("alice")
            for api in [first, second, first, second] {
                #expect(try await api.send(.GET, "/v1/me", token: alice.token).status == 200)
            }
            #expect(try await first.send(.DELETE, "/v1/sessions/current", token: alice.token).status == 204)
            for api in [second, first, cluster.api] {
                #expect(try await api.send(.GET, "/v1/me", token: alice.token).status == 401)
            }
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func anEndedSessionAndAPasswordChangeOnOneInstanceStopTokensOnTheOther() async throws {
        try await Self.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let alice = try await first.register("alice")
            let login = { (api: APIHarness) async throws -> String in
                try await api.login("alice", password: "correct horse").decode(AuthResponse.self).token
            }
            let laptop = try await login(second)
            let tablet = try await login(second)
            for token in [laptop, tablet] { #expect(try await second.send(.GET, "/v1/me", token: token).status == 200) }
            let sessions = try await first.send(.GET, "/v1/sessions", token: alice.token).decode(SessionList.self).items
            #expect(sessions.count == 3 && sessions.filter(\.current).count == 1)
            let laptopId = try #require(sessions.first { !$0.current }?.id)
            #expect(try await first.send(.DELETE, "/v1/sessions/\(laptopId)", token: alice.token).status == 204)
            var stillWorking = 0
            for token in [laptop, tablet] where try await second.send(.GET, "/v1/me", token: token).status == 200 {
                stillWorking += 1
            }
            #expect(stillWorking == 1, "the ended one is refused by the other instance at once")
            let change = ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple")
            #expect(try await first.send(.PUT, "/v1/me/password", token: alice.token, json: change).status == 204)
            for token in [laptop, tablet] { #expect(try await second.send(.GET, "/v1/me", token: token).status == 401) }
            #expect(try await second.send(.GET, "/v1/me", token: alice.token).status == 200)
        }
    }

    @Test(.enabled(if: available || required, skipReason))
    func sigtermClosesThePoolAndTheListener() async throws {
        let settings = try #require(
            TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI: .ci/run sets it")
        try await TestDatabase.create(settings)
        let server = try await ServerProcess(arguments: ["--database", settings.url])
        _ = try await server.api.register("alice")
        let before = try await Self.connections(settings)
        #expect(before >= 2, "the pool and the LISTEN connection: \(before)")
        #expect(try await server.stop(signal: SIGTERM) == 0, "graceful exit")
        var after = try await Self.connections(settings)
        for _ in 0..<50 where after > 0 {
            try await Task.sleep(for: .milliseconds(20))
            after = try await Self.connections(settings)
        }
        #expect(after == 0, "every connection closed")
        await TestDatabase.drop(settings)
    }

    /// Connections to the database of `settings`, not counting the one asking.
    static func connections(_ settings: PostgresSettings) async throws -> Int {
        try await TestDatabase.withConnection(settings) { connection, logger in
            let rows = try await connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                logger: logger)
            var value = 0
            for try await n in rows.decode(Int.self) { value = n }
            return value
        }
    }

    static func waitForListeners(_ settings: PostgresSettings, count: Int) async -> Bool {
        for _ in 0..<100 {
            let listening = try? await TestDatabase.withConnection(settings) { connection, logger in
                let rows = try await connection.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'chirp-listener' AND datname = current_database()",
                    logger: logger)
                var value = 0
                for try await n in rows.decode(Int.self) { value = n }
                return value
            }
            if listening == count { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// The scale-out tests of blocks, password changes, suspensions and groups across instances
/// (`ScaleOutTests+Safety`, `+Moderation`, `+Groups`), on clusters of their own: a second
/// serialized suite beside `ScaleOutTests`, whose thirteen tests one after another were the
/// run's last chain to end.
@Suite("Scale-out: safety, moderation and groups across instances", .serialized)
struct ScaleOutAcrossInstancesTests {}
