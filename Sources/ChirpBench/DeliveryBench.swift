import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation
import Synchronization

/// `chirp bench delivery`: how long a direct message takes from `send` on one client to the
/// recipient's client applying it from its WebSocket stream, one message at a time, through the
/// real client path (outbox, local databases, sync engine).
struct DeliveryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery",
        abstract: "Measure send → recipient-receives latency over a WebSocket (median and p99).",
        discussion:
            "Against --server, run that server with --no-rate-limits (the direct-message limit would stop the run).")

    @Option(help: "Server to measure against; without it an embedded server is started.")
    var server: String?

    @Option(help: "Messages to send, one at a time.")
    var count = 1000

    func run() async throws {
        let embedded = server == nil ? try await EmbeddedServer { $0.rateLimitsEnabled = false } : nil
        let baseURL =
            try embedded?.baseURL ?? URL(string: server!).orThrow("--server takes a URL such as http://127.0.0.1:8080")
        let homes = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: homes) }
        let suffix = UInt32.random(in: 0...UInt32.max) % 100_000
        let sender = try await AccountManager(
            context: AppContext(root: homes.appendingPathComponent("s")), server: Server(baseURL: baseURL)
        )
        .register("sender\(suffix)", password: "bench-password")
        let recipient = try await AccountManager(
            context: AppContext(root: homes.appendingPathComponent("r")), server: Server(baseURL: baseURL)
        )
        .register("recipient\(suffix)", password: "bench-password")
        _ = try await recipient.api.send(ChirpEndpoints.Follow(sender.username))

        let arrivals = Arrivals()
        let listener = Task {
            await recipient.sync.run(
                onEvent: { event in
                    if case .messageCreated(let message) = event.payload { arrivals.arrived(message.text) }
                },
                onState: { state in if state == .live { arrivals.markLive() } })
        }
        try await arrivals.waitLive()

        print("send → receive over a WebSocket, \(count) messages one at a time, server \(baseURL.absoluteString)")
        var delivery: [Double] = []
        var acknowledgement: [Double] = []
        let start = ContinuousClock.now
        for index in 0..<count {
            let text = "bench \(index)"
            let t0 = ContinuousClock.now
            let (message, _) = try await sender.send(text, to: recipient.username)
            guard message.state != .pending, message.state != .failed else {
                throw ValidationError("send \(index) did not go through: \(message.failure ?? "still pending")")
            }
            acknowledgement.append((ContinuousClock.now - t0).seconds)
            let arrived = try await arrivals.wait(for: text)
            delivery.append((arrived - t0).seconds)
        }
        let elapsed = (ContinuousClock.now - start).seconds
        listener.cancel()
        await listener.value
        let received = LatencySummary(latencies: delivery, seconds: elapsed)
        let acked = LatencySummary(latencies: acknowledgement, seconds: elapsed)
        print(
            String(
                format: "  delivered   p50 %6.2f ms   p99 %6.2f ms   max %6.2f ms", received.percentile(0.5),
                received.percentile(0.99), received.percentile(1)))
        print(
            String(format: "  acknowledged p50 %5.2f ms   p99 %6.2f ms", acked.percentile(0.5), acked.percentile(0.99)))
        await embedded?.stop()
    }
}

/// When each benchmark message reached the recipient's client.
final class Arrivals: Sendable {
    private let state = Mutex<(live: Bool, times: [String: ContinuousClock.Instant])>((false, [:]))

    func markLive() { state.withLock { $0.live = true } }
    func arrived(_ text: String) { state.withLock { $0.times[text] = .now } }

    func waitLive() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !state.withLock({ $0.live }) {
            guard ContinuousClock.now < deadline else {
                throw ValidationError("the recipient's WebSocket did not open within 10 s")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Waits (polling every 50 µs) until `text` arrived; returns when it did.
    func wait(for text: String) async throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let time = state.withLock({ $0.times.removeValue(forKey: text) }) { return time }
            guard ContinuousClock.now < deadline else { throw ValidationError("\(text) did not arrive within 10 s") }
            try await Task.sleep(for: .microseconds(50))
        }
    }
}
