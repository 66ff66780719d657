import ChirpModels
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization
import Testing

/// `GET /v1/events/stream` over a real WebSocket.
@Suite("WebSocket event stream")
struct WebSocketStreamTests {
    /// Connects, collects `count` events (or stops after `timeout`), then closes.
    static func collect(
        port: Int, query: String, headers: HTTPFields = [:], count: Int, timeout: Duration = .seconds(30),
        whileConnected: @escaping @Sendable () async throws -> Void = {}
    ) async throws -> [Event] {
        let received = ReceivedEvents()
        let logger: Logger = {
            var logger = Logger(label: "ws.test")
            logger.logLevel = .critical
            return logger
        }()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/v1/events/stream\(query)",
                    configuration: .init(maxFrameSize: 1 << 16, additionalHeaders: headers), logger: logger
                ) { inbound, outbound, _ in
                    var started = false
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        guard case .text(let text) = message else { continue }
                        let event = try JSONDecoder().decode(Event.self, from: Data(text.utf8))
                        let total = received.append(event)
                        if !started {
                            started = true
                            Task { try await whileConnected() }
                        }
                        if total >= count { break }
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw CancellationError()
            }
            _ = try await group.next()
            group.cancelAll()
        }
        return received.all
    }

    @Test func replaysAfterSinceThenDeliversLiveEventsAndTyping() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for index in 0..<3 { _ = try await api.sendMessage(alice, to: "bob", "before \(index)") }
            let port = api.port
            let events = try await Self.collect(
                port: port, query: "?since=1", headers: [.authorization: "Bearer \(bob.token)"], count: 4
            ) {
                // Sent while bob is connected: arrives live, after the replay.
                try await Task.sleep(for: .milliseconds(200))
                _ = try await api.sendMessage(alice, to: "bob", "live")
                _ = try await api.send(.POST, "/v1/conversations/bob/typing", token: alice.token)
            }
            #expect(events.map(\.seq) == [2, 3, 4, nil])
            #expect(events.last?.payload == .typing(TypingNotice(from: "alice")))
            if case .messageCreated(let message) = events[2].payload { #expect(message.text == "live") }
        }
    }

    @Test func aTokenInTheQueryWorksAndBadTokensAreRefused() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            #expect(
                try await api.send(.PUT, "/v1/tweets/t1", token: alice.token, json: TextBody(text: "hi")).status == 201)
            let port = api.port
            let events = try await Self.collect(port: port, query: "?since=0&token=\(alice.token)", count: 1)
            #expect(events.map(\.type) == ["tweet.created"])
            await #expect(throws: (any Error).self) {
                _ = try await Self.collect(port: port, query: "?token=wrong", count: 1, timeout: .seconds(5))
            }
            // Without an upgrade the endpoint answers with the error envelope.
            let plain = try await api.send(.GET, "/v1/events/stream", token: alice.token)
            #expect(plain.status == 426 && plain.errorCode == "upgrade_required")
            #expect(try await api.send(.GET, "/v1/events/stream").status == 401)
            #expect(try await api.send(.GET, "/v1/events/stream?since=-1", token: alice.token).status == 400)
        }
    }
}

/// Events a test connection received.
final class ReceivedEvents: Sendable {
    private let events = Mutex<[Event]>([])
    func append(_ event: Event) -> Int {
        events.withLock {
            $0.append(event)
            return $0.count
        }
    }
    var all: [Event] { events.withLock { $0 } }
}
