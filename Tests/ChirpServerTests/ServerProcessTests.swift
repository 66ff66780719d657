import ChirpModels
import ChirpTestSupport
import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A real server process: restarts, signals, crashes")
struct ServerProcessTests {
    @Test func dataSurvivesAGracefulRestart() async throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await ServerProcess(dataDirectory: directory)
        let api = first.api
        let alice = try await api.register("alice")
        let bob = try await api.register("bob")
        try await api.follow(bob, "alice")
        for index in 0..<3 { _ = try await api.sendMessage(alice, to: "bob", "before restart \(index)") }
        #expect(
            try await api.send(.PUT, "/v1/tweets/t1", token: alice.token, json: TextBody(text: "persisted")).status
                == 201)
        #expect(first.output.contains("(sqlite: \(directory.path)/chirp.sqlite)"))
        let status = try await first.stop(signal: SIGTERM)
        #expect(status == 0, "SIGTERM shuts down gracefully")

        let second = try await ServerProcess(dataDirectory: directory)
        let again = second.api
        // Old tokens still work; history, counts, timeline and event streams are intact.
        #expect(
            try await again.messages(bob, with: "alice").items.map(\.text) == (0..<3).map { "before restart \($0)" })
        let me: User = try await again.send(.GET, "/v1/me", token: alice.token).decode()
        #expect(me.followersCount == 1)
        let timeline: Page<Tweet> = try await again.send(.GET, "/v1/timeline", token: bob.token).decode()
        #expect(timeline.items.map(\.text) == ["persisted"])
        _ = try await again.sendMessage(alice, to: "bob", "after restart")
        #expect(try await again.allEvents(bob).map(\.seq) == (1...5).map { Optional(Int64($0)) })
        try await second.stop(signal: SIGINT)
    }

    @Test func everyAcknowledgedMessageSurvivesSIGKILL() async throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await ServerProcess(dataDirectory: directory, arguments: ["--no-rate-limits"])
        let api = first.api
        let inbox = try await api.register("inbox")
        var senders: [Session] = []
        for index in 0..<4 {
            let sender = try await api.register("writer\(index)")
            try await api.follow(inbox, sender.username)
            senders.append(sender)
        }
        let acknowledged = Acknowledgements()
        let writers = senders
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for sender in writers {
                    group.addTask {
                        for index in 0..<10_000 {
                            guard
                                let reply = try? await api.sendMessage(
                                    sender, to: "inbox", "\(sender.username) \(index)"),
                                reply.status == 201, let message = try? reply.decode(Message.self)
                            else { return }
                            acknowledged.add(message.id)
                        }
                    }
                }
            }
        }
        // Kill in the middle of the load.
        while acknowledged.count < 150 { try await Task.sleep(for: .milliseconds(10)) }
        try await first.stop(signal: SIGKILL)
        // A send that had not reached the dead server yet would wait out its whole timeout
        // (AsyncHTTPClient keeps trying to connect until then: 60 s of the test run).
        load.cancel()
        await load.value
        let acked = acknowledged.all
        #expect(acked.count >= 150)

        let second = try await ServerProcess(dataDirectory: directory)
        var stored: [String] = []
        for sender in senders {
            var page = try await second.api.messages(inbox, with: sender.username, query: "?limit=100")
            stored += page.items.map(\.id)
            while let cursor = page.nextCursor {
                page = try await second.api.messages(inbox, with: sender.username, query: "?limit=100&before=\(cursor)")
                stored += page.items.map(\.id)
            }
        }
        let storedSet = Set(stored)
        #expect(stored.count == storedSet.count, "no message stored twice")
        let lost = acked.subtracting(storedSet)
        #expect(lost.isEmpty, "\(lost.count) acknowledged messages lost")
        let events = try await second.api.allEvents(inbox)
        #expect(events.map(\.seq) == (1...Int64(events.count)).map { Optional($0) }, "stream gap-free after the crash")
        #expect(events.count == stored.count, "one event per stored message")
        try await second.stop(signal: SIGTERM)
    }

    @Test func sigtermClosesOpenEventStreamsWithGoingAway() async throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess(dataDirectory: directory)
        let alice = try await server.api.register("alice")
        let port = server.api.port
        let opened = Mutex(false)
        var logger = Logger(label: "ws.test")
        logger.logLevel = .critical
        let quietLogger = logger
        let stream = Task {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/v1/events/stream",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(alice.token)"]),
                logger: quietLogger
            ) { inbound, _, _ in
                opened.withLock { $0 = true }
                for try await _ in inbound {}
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !opened.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(opened.withLock { $0 })
        let stopping = ContinuousClock.now
        #expect(try await server.stop(signal: SIGTERM) == 0, "SIGTERM shuts down gracefully with a stream open")
        #expect(ContinuousClock.now - stopping < .seconds(10), "the open stream did not hold the shutdown up")
        let close = try await stream.value
        #expect(close?.closeCode == .goingAway, "closed with \(String(describing: close))")
    }

    @Test func badFlagsSayWhatToDo() async throws {
        let (status, output) = try await runChirp(["serve", "--chaos", "2"])
        #expect(status != 0)
        #expect(output.contains("--chaos takes a share from 0 to 1"))
    }
}

/// Thread-safe set of acknowledged message ids.
final class Acknowledgements: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: Set<String> = []
    func add(_ id: String) { lock.withLock { _ = ids.insert(id) } }
    var count: Int { lock.withLock { ids.count } }
    var all: Set<String> { lock.withLock { ids } }
}

@Suite("chirp bench")
struct BenchCommandTests {
    @Test(arguments: [
        ["bench", "persistence", "--count", "200", "--runs", "1"], ["bench", "transport", "--requests", "20"],
    ])
    func benchCommandsReportFigures(_ arguments: [String]) async throws {
        let (status, output) = try await runChirp(arguments)
        #expect(status == 0, "\(output)")
        #expect(output.contains("/s"), "\(output)")
    }

    /// The load bench end to end on a child server: every acknowledged send is delivered over
    /// the WebSockets, reads succeed, and the bare-route ceiling is measured.
    @Test func loadBenchDeliversEverySendItAcknowledges() async throws {
        // Its own temporary directory, to see that the run leaves nothing behind in it.
        let temporary = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (status, output) = try await runChirpInBackground(
            ["bench", "--duration", "1", "--users", "4", "--senders", "2", "--json"],
            environment: ["TMPDIR": temporary.path])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty,
            "the child server's data was removed")
        #expect(status == 0, "\(output)")
        // The output holds the bench's progress lines (standard error) before the report.
        let json = String(output[try #require(output.firstIndex(of: "{"), "\(output)")...])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
        let sends = try #require(report["sends"] as? Int)
        #expect(sends > 0)
        #expect(report["sendErrors"] as? Int == 0)
        #expect(report["undelivered"] as? Int == 0)
        #expect((report["delivery"] as? [String: Any])?["count"] as? Int == sends)
        #expect(report["readErrors"] as? Int == 0)
        #expect((report["timelineReadsPerSecond"] as? Double ?? 0) > 0)
        #expect((report["bareRequestsPerSecond"] as? Double ?? 0) > 0)
        #expect(
            (report["serverCPUPerSendMilliseconds"] as? Double ?? 0) > 0, "the child server's CPU per send is measured")
    }

    /// `--compare-build` needs a chirp binary to compare with, and says how to make one.
    @Test func compareBuildRefusesAPathThatIsNoBinary() async throws {
        let (status, output) = try await runChirp(["bench", "--compare-build", "/nonexistent/chirp"])
        #expect(status != 0)
        #expect(output.contains("/nonexistent/chirp is not an executable file"), "\(output)")
    }

    @Test func idleSocketsBenchHoldsEveryConnection() async throws {
        let (status, output) = try await runChirpInBackground(["bench", "--idle-sockets", "50", "--json"])
        #expect(status == 0, "\(output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(report["opened"] as? Int == 50)
        #expect(report["bytesPerConnection"] is Double)
    }
}
