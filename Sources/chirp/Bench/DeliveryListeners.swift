import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization

/// One WebSocket per account, recording for each message addressed to it how long it took
/// from the sender's stamp (microseconds since `origin`, at the start of the text) to here.
final class DeliveryListeners: Sendable {
    private let tasks: Mutex<[Task<Void, Never>]>

    private init(tasks: [Task<Void, Never>]) { self.tasks = Mutex(tasks) }

    static func open(baseURL: URL, accounts: [BenchAccount], origin: ContinuousClock.Instant, recorder: LatencyRecorder) async throws -> DeliveryListeners {
        let opened = Tally()
        let logger = Self.quietLogger
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        let tasks = accounts.map { account in
            Task {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(account.token)"
                let marker = #""recipient":"\#(account.name)""#
                _ = try? await WebSocketClient.connect(
                    url: "ws://\(host):\(port)/v1/events/stream?since=0", configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers),
                    logger: logger
                ) { inbound, _, _ in
                    opened.add()
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message, text.contains(marker), let stamp = Self.stamp(in: text) else { continue }
                        let now = ContinuousClock.now - origin
                        let micros = now.components.seconds * 1_000_000 + now.components.attoseconds / 1_000_000_000_000
                        recorder.record(.microseconds(micros - stamp))
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while opened.value < accounts.count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        guard opened.value == accounts.count else {
            for task in tasks { task.cancel() }
            throw CommandFailure("only \(opened.value) of \(accounts.count) WebSockets opened")
        }
        return DeliveryListeners(tasks: tasks)
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "chirp.bench.ws")
        logger.logLevel = .critical
        return logger
    }()

    /// The number after `"text":"t` in an event frame.
    static func stamp(in frame: String) -> Int64? {
        guard let range = frame.range(of: #""text":"t"#) else { return nil }
        return Int64(frame[range.upperBound...].prefix { $0.isNumber })
    }

    func close() { tasks.withLock { for task in $0 { task.cancel() } } }
}

/// Holds many idle WebSockets on one server and reports what they cost it.
struct IdleSocketsRun {
    let baseURL: URL
    let count: Int
    let server: ChildServer?

    struct Report: Encodable {
        var connections: Int
        var opened: Int
        var serverRSSBeforeBytes: Int?
        var serverRSSAfterBytes: Int?
        var bytesPerConnection: Double?

        var lines: [String] {
            var lines = ["idle WebSockets: \(opened) of \(connections) held"]
            if let before = serverRSSBeforeBytes, let after = serverRSSAfterBytes, let each = bytesPerConnection {
                lines.append(String(format: "  server RSS %.1f MiB → %.1f MiB · %.1f KB per connection", Double(before) / 1_048_576, Double(after) / 1_048_576, each / 1024))
            } else {
                lines.append("  server RSS: n/a (external server)")
            }
            return lines
        }
    }

    func run() async throws -> Report {
        let client = LoadClient(baseURL: baseURL, connections: 1)
        defer { Task { await client.shutdown() } }
        let token = try await client.register("idle\(UInt32.random(in: 0...UInt32.max) % 100_000)").token
        try await Task.sleep(for: .milliseconds(500))
        let before = server?.residentBytes
        let opened = Tally()
        let logger = DeliveryListeners.quietLogger
        let url = "ws://\(baseURL.host ?? "127.0.0.1"):\(baseURL.port ?? 80)/v1/events/stream?since=0"
        var tasks: [Task<Void, Never>] = []
        for index in 0..<count {
            tasks.append(Task {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                _ = try? await WebSocketClient.connect(url: url, configuration: .init(additionalHeaders: headers, autoPing: .disabled), logger: logger) { inbound, _, _ in
                    opened.add()
                    for try await _ in inbound {}
                }
            })
            if index % 200 == 199 { try await Task.sleep(for: .milliseconds(50)) }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while opened.value < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        try await Task.sleep(for: .seconds(2))
        let after = server?.residentBytes
        let held = opened.value
        for task in tasks { task.cancel() }
        var perConnection: Double?
        if let before, let after, held > 0 { perConnection = Double(after - before) / Double(held) }
        return Report(connections: count, opened: held, serverRSSBeforeBytes: before, serverRSSAfterBytes: after, bytesPerConnection: perConnection)
    }
}
