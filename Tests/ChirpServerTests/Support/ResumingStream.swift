import ChirpModels
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization

/// Follows one user's event stream over WebSockets the way a client does: whenever the
/// connection ends it reconnects with `since` = the last seq it has, until cancelled.
final class ResumingStream: Sendable {
    private let state = Mutex((events: [Event](), connections: 0, attempts: 0))
    let port: Int
    let token: String

    init(port: Int, token: String) {
        self.port = port
        self.token = token
    }

    /// Stored events received, in order.
    var stored: [Event] { state.withLock { $0.events.filter { $0.seq != nil } } }
    /// Every event received, typing included.
    var all: [Event] { state.withLock { $0.events } }
    /// How many connections were opened (1 + reconnects).
    var connections: Int { state.withLock { $0.connections } }
    /// How many connections were tried, failed ones included.
    var attempts: Int { state.withLock { $0.attempts } }
    private var lastSeq: Int64 { state.withLock { $0.events.compactMap(\.seq).last ?? 0 } }

    /// Runs until cancelled.
    func run() async {
        var logger = Logger(label: "chirp.test.stream")
        logger.logLevel = .critical
        while !Task.isCancelled {
            state.withLock { $0.attempts += 1 }
            do {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/v1/events/stream?since=\(lastSeq)",
                    configuration: .init(maxFrameSize: 1 << 16, additionalHeaders: headers), logger: logger
                ) { inbound, _, _ in
                    self.state.withLock { $0.connections += 1 }
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        guard case .text(let text) = message else { continue }
                        let event = try JSONDecoder().decode(Event.self, from: Data(text.utf8))
                        self.state.withLock { $0.events.append(event) }
                    }
                }
            } catch {}
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Waits until `condition` holds for what was received, up to `timeout`.
    func wait(timeout: Duration = .seconds(60), until condition: ([Event]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(all)
    }
}
