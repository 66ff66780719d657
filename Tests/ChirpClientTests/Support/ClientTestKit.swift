import ChirpClient
import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation
import Synchronization

/// A clock that never waits: `sleep` records the duration and moves `now` forward.
final class TestClock: Sendable {
    private let state = Mutex<(now: ContinuousClock.Instant, sleeps: [Duration])>((.now, []))

    var clock: ClientClock {
        ClientClock(
            now: { self.state.withLock { $0.now } },
            sleep: { duration in
                try Task.checkCancellation()
                self.state.withLock {
                    $0.now += duration
                    $0.sleeps.append(duration)
                }
                await Task.yield()
            })
    }

    /// Every sleep so far.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves time forward.
    func advance(_ duration: Duration) { state.withLock { $0.now += duration } }
}

/// A live event source that plays one script per connection attempt and records the `since`
/// each attempt asked for.
final class ScriptedEventSource: LiveEventSource {
    typealias Script =
        @Sendable (_ onOpen: @Sendable () async -> Void, _ onEvent: @Sendable (Event) async throws -> Void) async throws
        -> Void
    private let scripts: Mutex<[Script]>
    private let sinces = Mutex<[Int64]>([])

    init(_ scripts: [Script]) { self.scripts = Mutex(scripts) }

    var requestedSince: [Int64] { sinces.withLock { $0 } }

    func stream(
        since: Int64, token: String?, onOpen: @escaping @Sendable () async -> Void,
        onEvent: @escaping @Sendable (Event) async throws -> Void
    ) async throws {
        sinces.withLock { $0.append(since) }
        let script = scripts.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let script else {
            // Out of scripts: stay "connected" until cancelled.
            await onOpen()
            while !Task.isCancelled { try await Task.sleep(for: .milliseconds(5)) }
            throw CancellationError()
        }
        try await script(onOpen, onEvent)
    }
}

/// Builders for wire values and a user session over a `MockTransport`.
enum Fixture {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static func message(
        _ id: Int, from sender: String, to recipient: String, text: String, clientId: String? = nil, read: Bool = false
    ) -> Message {
        Message(
            id: String(id), clientMessageId: clientId ?? "c\(id)", sender: sender, recipient: recipient, text: text,
            createdAt: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(id)), readByRecipient: read)
    }

    static func event(_ seq: Int64?, _ payload: EventPayload) -> Event {
        Event(seq: seq, createdAt: Timestamp(millisecondsSince1970: 1_795_000_000_000), payload: payload)
    }

    static func json<T: Encodable>(_ value: T) -> String { String(decoding: try! encoder.encode(value), as: UTF8.self) }

    static func reply<T: Encodable>(_ status: Int, _ value: T) -> MockTransport.Answer {
        .reply(
            TransportResponse(
                status: status, headers: ["Content-Type": "application/json"], body: Data(json(value).utf8)))
    }

    static func error(_ status: Int, code: String, message: String) -> MockTransport.Answer {
        .reply(
            TransportResponse(
                status: status, headers: ["Content-Type": "application/json"],
                body: Data(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#.utf8)))
    }

    /// alice's session on a fresh client directory, talking to `mock` (or through `transport`
    /// when given, such as a `GatedTransport` in front of `mock`).
    static func session(
        _ mock: MockTransport, clock: TestClock, source: any LiveEventSource = ScriptedEventSource([]),
        transport: (any Transport)? = nil
    ) throws -> UserSession {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("client-unit-\(UUID().uuidString)")
        let user = try AppContext(root: root).switchUser(to: "alice")
        let api = ChirpAPIClient(
            baseURL: URL(string: "http://mock.invalid")!, token: "token", transport: transport ?? mock,
            sleep: clock.clock.sleep)
        return try UserSession(context: user, api: api, source: source, clock: clock.clock)
    }

    /// Makes `mock` accept every message send, echoing it back with increasing ids; returns
    /// the texts in the order the server accepted them.
    static func acceptSends(
        _ mock: MockTransport, refuse: @escaping @Sendable (String) -> MockTransport.Answer? = { _ in nil }
    ) -> AcceptedSends {
        let accepted = AcceptedSends()
        mock.respond(.put, pathPrefix: "/v1/conversations/") { request in
            let parts = request.url.path.split(separator: "/")  // v1 conversations NAME messages ID
            let text = (try? JSONDecoder().decode([String: String].self, from: request.body ?? Data()))?["text"] ?? ""
            if let refusal = refuse(text) { return refusal }
            let id = accepted.accept("\(parts[2]):\(text)")
            return reply(201, message(id, from: "alice", to: String(parts[2]), text: text, clientId: String(parts[4])))
        }
        return accepted
    }
}

/// What a mock server accepted: `recipient:text` in order.
final class AcceptedSends: Sendable {
    private let state = Mutex<[String]>([])
    /// Records one; returns its server id (1, 2, 3 …).
    func accept(_ entry: String) -> Int {
        state.withLock {
            $0.append(entry)
            return $0.count
        }
    }
    var entries: [String] { state.withLock { $0 } }
}
