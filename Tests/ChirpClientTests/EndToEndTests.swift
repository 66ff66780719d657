import ChirpModels
import ChirpNetworking
import ChirpPersistence
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

#if canImport(Glibc)
    import Glibc
#endif

/// The client end to end: real `chirp serve` processes, real `chirp` client processes, real
/// client databases.
@Suite("Client end to end")
struct EndToEndTests {
    /// Registers users and, with `following`, makes each follow every other one (the DM rule
    /// needs it; strangers message each other only through requests).
    static func community(_ names: [String], server: URL, following: Bool = true) async throws -> [String: ClientHome] {
        var homes: [String: ClientHome] = [:]
        for name in names {
            let home = ClientHome(server: server)
            try await home.register(name)
            homes[name] = home
        }
        // The follows are setup, sent in this process through each user's own session (one
        // request each) rather than by a `chirp follow` process per pair; `chirp follow` itself
        // is run by the tests of follows and accounts.
        for name in names where following {
            let session = try homes[name]!.session()
            for other in names where other != name { try await session.follow(other) }
        }
        return homes
    }

    /// A server whose users are set up without chaos, then restarted with `--chaos RATE`.
    static func chaosServer(_ names: [String], rate: String) async throws -> (ServerProcess, [String: ClientHome]) {
        let data = ServerProcess.temporaryDirectory()
        let plain = try await ServerProcess(dataDirectory: data)
        let homes = try await community(names, server: plain.baseURL)
        try await plain.stop(signal: SIGTERM)
        let server = try await ServerProcess(
            dataDirectory: data, port: plain.port, arguments: ["--chaos", rate, "--no-rate-limits"])
        return (server, homes)
    }

    /// The texts `sender` sent `recipient`, as the recipient's server-side history lists them.
    static func serverTexts(from sender: String, to recipient: ClientHome) async throws -> [String] {
        let session = try recipient.session()
        // Reads that check a result may meet a chaos server too: retried until they get through.
        let page = try await session.api.send(
            WithRetries(persistent, ChirpEndpoints.ListMessages(with: sender, limit: 100)))
        return page.items.filter { $0.sender == sender }.map(\.text)
    }

    @Test func twoUsersSeeEachOthersMessagesLiveThroughWatch() async throws {
        let server = try await ServerProcess()
        let homes = try await Self.community(["alice", "bob"], server: server.baseURL)
        let aliceWatch = try homes["alice"]!.start("watch")
        let bobWatch = try homes["bob"]!.start("watch")
        #expect(try await aliceWatch.waitFor { $0.contains("watch: live") })
        #expect(try await bobWatch.waitFor { $0.contains("watch: live") })

        let sent = try await homes["alice"]!.chirp("send", "bob", "hello", "bob")
        #expect(sent.status == 0)
        #expect(sent.output.contains("sent: hello bob → bob"))
        let start = ContinuousClock.now
        #expect(try await bobWatch.waitFor { $0.contains("message alice → bob: hello bob") })
        let bobLatency = ContinuousClock.now - start

        let reply = try await homes["bob"]!.chirp("send", "alice", "hi alice 👋")
        #expect(reply.status == 0)
        let replyStart = ContinuousClock.now
        #expect(try await aliceWatch.waitFor { $0.contains("message bob → alice: hi alice 👋") })
        let aliceLatency = ContinuousClock.now - replyStart
        #expect(bobLatency < .seconds(1), "bob saw alice's message after \(bobLatency)")
        #expect(aliceLatency < .seconds(1), "alice saw bob's message after \(aliceLatency)")

        // Each side's own message comes back on its own stream too, and the local history shows it delivered.
        let history = try await homes["alice"]!.chirp("messages", "bob")
        #expect(history.output.contains("alice: hello bob  ✓✓"))
        #expect(history.output.contains("bob: hi alice 👋"))
        // bob's `messages` marked alice's message read; alice's watch hears of it.
        _ = try await homes["bob"]!.chirp("messages", "alice")
        #expect(try await aliceWatch.waitFor { $0.contains("read bob read your messages") })
        #expect(await aliceWatch.stop(), "chirp watch ends on SIGTERM")
        #expect(await bobWatch.stop(), "chirp watch ends on SIGTERM")
    }

    @Test func messagesQueuedWhileTheServerIsDownAreDeliveredOnceInOrderBySync() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await Self.community(["alice", "bob"], server: server!.baseURL)
        try await server!.stop(signal: SIGTERM)
        server = nil

        for index in 0..<20 {
            let result = try await homes["alice"]!.chirp("send", "bob", "queued \(index)")
            #expect(result.status == 0, "send \(index) while the server is down: \(result.output)")
            #expect(result.output.hasPrefix("queued: queued \(index) → bob"))
        }
        let offline = try await homes["alice"]!.chirp("conversations")
        #expect(offline.status != 0)
        #expect(offline.output.contains("cannot reach the server"))
        #expect(try await homes["alice"]!.session().pendingMessages().count == 20)

        server = try await ServerProcess(dataDirectory: data, port: port)
        let sync = try await homes["alice"]!.chirp("sync")
        #expect(sync.status == 0, "\(sync.output)")
        #expect(sync.output.contains("synced: 20 sent, 0 failed, 0 still queued"))
        #expect(try await Self.serverTexts(from: "alice", to: homes["bob"]!) == (0..<20).map { "queued \($0)" })
        // A second sync sends nothing again.
        let again = try await homes["alice"]!.chirp("sync")
        #expect(again.output.contains("synced: 0 sent"))
        #expect(try await Self.serverTexts(from: "alice", to: homes["bob"]!).count == 20)
        _ = server
    }

    @Test func aClientKilledWhileSendingSendsTheRestOnItsNextRunOnceEach() async throws {
        // Accounts first; then the server comes back with chaos, which slows every request (and
        // fails some), so the kill lands mid-flush.
        let (server, homes) = try await Self.chaosServer(["alice", "bob"], rate: "0.2")
        // Queued in this process without draining: the `chirp sync` process below sends them.
        let ledger = try homes["alice"]!.session().ledger
        for index in 0..<30 { _ = try await ledger.addPending(to: "bob", text: "outbox \(index)") }

        let flushing = try homes["alice"]!.start("sync")
        let bob = try homes["bob"]!.session()
        let deadline = ContinuousClock.now + .seconds(30)
        var delivered = 0
        while delivered < 3, ContinuousClock.now < deadline, flushing.process.isRunning {
            delivered =
                (try? await bob.api.send(ChirpEndpoints.ListMessages(with: "alice", limit: 100)).items.count) ?? 0
            try await Task.sleep(for: .milliseconds(20))
        }
        await flushing.stop(signal: SIGKILL)
        let pendingAfterKill = try await homes["alice"]!.session().pendingMessages().count
        #expect(pendingAfterKill > 0, "the kill came after the outbox was empty; nothing was tested")

        let rerun = try await homes["alice"]!.chirp("sync")
        #expect(rerun.status == 0, "\(rerun.output)")
        #expect(try await Self.serverTexts(from: "alice", to: homes["bob"]!) == (0..<30).map { "outbox \($0)" })
        #expect(try await homes["alice"]!.session().pendingMessages().isEmpty)
    }

    /// 80 sends, 20 on each of four pairs: at a 30 % failure rate about 34 of them are refused
    /// with `Retry-After: 1` and retried, as with the 200 this sent before at two and a half times
    /// the wait (the test was the run's longest chain).
    @Test func underChaosEightySendsArriveExactlyOnceInOrder() async throws {
        let (server, homes) = try await Self.chaosServer(["alice", "bob", "carol"], rate: "0.3")
        let plan: [(sender: String, recipient: String)] = [
            ("alice", "bob"), ("alice", "carol"), ("bob", "alice"), ("bob", "carol"),
        ]
        let sessions = try ["alice": homes["alice"]!.session(), "bob": homes["bob"]!.session()]
        for (sender, recipient) in plan {
            for index in 0..<20 {
                _ = try await sessions[sender]!.ledger.addPending(
                    to: recipient, text: "\(sender)→\(recipient) \(index)")
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in sessions.values {
                group.addTask {
                    for _ in 0..<10 where try await !session.drainOutbox().isDrained {}
                }
            }
            try await group.waitForAll()
        }
        for (sender, recipient) in plan {
            let texts = try await Self.serverTexts(from: sender, to: homes[recipient]!)
            #expect(texts == (0..<20).map { "\(sender)→\(recipient) \($0)" }, "\(sender) → \(recipient)")
        }
        for (name, session) in sessions {
            try await session.sync.catchUp()
            let rows = try await session.database.messages.fetch(.all)
            let serverIds = rows.compactMap(\.serverId)
            #expect(rows.count == 60, "\(name) holds \(rows.count) messages")  // 40 sent + 20 received
            #expect(
                Set(serverIds).count == serverIds.count && serverIds.count == rows.count,
                "\(name): duplicates or unsent rows")
            #expect(rows.filter { $0.isOutgoing(for: name) }.allSatisfy { $0.state == .delivered || $0.state == .sent })
        }
    }

    @Test func watchResumesWithoutAGapAfterTheServerRestarts() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server = try await ServerProcess(dataDirectory: data)
        let port = server.port
        let homes = try await Self.community(["alice", "bob"], server: server.baseURL)
        let watch = try homes["bob"]!.start("watch", "--json")
        #expect(try await watch.waitFor { $0.contains("watch: live") })
        let alice = try homes["alice"]!.session()
        for index in 0..<10 { _ = try await alice.send("before \(index)", to: "bob") }
        #expect(try await watch.waitFor { $0.contains("before 9") })

        try await server.stop(signal: SIGTERM)
        // alice writes while the server is down; the messages wait in her outbox.
        for index in 0..<5 { _ = try await alice.enqueue("during \(index)", to: "bob") }
        server = try await ServerProcess(dataDirectory: data, port: port)
        #expect(try await alice.drainOutbox().isDrained)
        for index in 0..<5 { _ = try await alice.send("after \(index)", to: "bob") }
        #expect(try await watch.waitFor(timeout: .seconds(30)) { $0.contains("after 4") }, "\(watch.output)")
        #expect(await watch.stop(), "chirp watch ends on SIGTERM")

        let events = watch.lines.filter { $0.hasPrefix("{") }.compactMap {
            try? JSONDecoder().decode(Event.self, from: Data($0.utf8))
        }
        let seqs = events.compactMap(\.seq)
        #expect(seqs == Array(1...Int64(seqs.count)), "seqs: \(seqs)")
        let texts = events.compactMap { event -> String? in
            if case .messageCreated(let message) = event.payload { return message.text }
            return nil
        }
        #expect(
            texts == (0..<10).map { "before \($0)" } + (0..<5).map { "during \($0)" } + (0..<5).map { "after \($0)" })
        #expect(watch.output.components(separatedBy: "watch: connecting").count >= 3, "watch did not reconnect")
    }
}

/// Accounts through the CLI: passwords on stdin, sessions kept, logout wiping local data.
@Suite("Client accounts end to end", .serialized)
struct AccountCommandsEndToEndTests {
    @Test func loginLogoutAndErrorsThatSayWhatToDo() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let alice = ClientHome(server: server!.baseURL)
        let notLoggedIn = try await alice.chirp("conversations")
        #expect(notLoggedIn.status != 0)
        #expect(notLoggedIn.output.contains("not logged in: run chirp login USER"))

        try await alice.registerWithTheCLI("alice")
        let bob = ClientHome(server: server!.baseURL)
        try await bob.registerWithTheCLI("bob")
        #expect(try await bob.chirp("follow", "alice").status == 0)
        let whoami = try await alice.chirp("whoami", "--json")
        #expect(whoami.status == 0)
        #expect(try JSONDecoder().decode(User.self, from: Data(whoami.output.utf8)).username == "alice")
        let tokenFile = alice.directory.appendingPathComponent("users/alice/token")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let wrong = try await alice.chirp("login", "alice", input: "not-the-password\n")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("Error:"))
        #expect(
            try await alice.chirp("login", "alice", input: "password-alice\n").output.contains("logged in as alice"))

        // A message queued while the server is down blocks logout (it would be lost) until sent.
        try await server!.stop(signal: SIGTERM)
        server = nil
        #expect(try await alice.chirp("send", "bob", "do not lose me").output.hasPrefix("queued:"))
        let refused = try await alice.chirp("logout")
        #expect(refused.status != 0)
        #expect(refused.output.contains("1 queued message(s) have not reached the server"))
        server = try await ServerProcess(dataDirectory: data, port: port)
        let logout = try await alice.chirp("logout")
        #expect(logout.status == 0, "\(logout.output)")
        #expect(try await EndToEndTests.serverTexts(from: "alice", to: bob) == ["do not lose me"])
        #expect(
            !FileManager.default.fileExists(atPath: alice.directory.appendingPathComponent("users/alice").path),
            "local data wiped")
        #expect(try await alice.chirp("whoami").output.contains("not logged in"))
    }
}
