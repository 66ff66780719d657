import ChirpModels
import ChirpNetworking
import Foundation
import Synchronization
import Testing

@testable import ChirpClient

/// The app's one live sync broadcasts connection changes and events to every listener
/// (through the kit's `MulticastDelegate`), and the session's sync engine sends what waits in
/// the outbox when the connection comes back.
@Suite("Live sync listeners")
struct LiveSyncTests {
    final class Recorder: LiveSyncListener {
        let seen = Mutex<[String]>([])
        func connectionChanged(_ state: SyncEngine.ConnectionState) { seen.withLock { $0.append("\(state)") } }
        func eventApplied(_ event: Event) { seen.withLock { $0.append("event \(event.seq ?? 0)") } }
        var log: [String] { seen.withLock { $0 } }
    }

    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func everyListenerHearsTheConnectionAndTheOutboxGoesOutWhenLive() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let incoming = Fixture.event(1, .messageCreated(Fixture.message(7, from: "bob", to: "alice", text: "hi")))
        let source = ScriptedEventSource([
            { onOpen, onEvent in
                await onOpen()
                try await onEvent(incoming)
                while !Task.isCancelled { try await Task.sleep(for: .milliseconds(5)) }
                throw CancellationError()
            }
        ])
        let session = try Fixture.session(mock, clock: clock, source: source)
        mock.stub(.get, "/v1/events", answers: [Fixture.reply(200, EventsResponse(events: [], lastSeq: 0))])
        let accepted = Fixture.acceptSends(mock)
        // Offline: the enqueue's own drain cannot send, and the message stays pending.
        mock.faults = .init(failureRate: 1)
        let waiting = try await session.enqueue("written offline", to: "bob")
        _ = try? await session.drainOutbox()
        #expect(
            try await session.messages(with: "bob", limit: 10, refresh: false).items.first { $0.id == waiting.id }?
                .state == .pending)
        #expect(accepted.entries.isEmpty)
        mock.faults = .init()

        let sync = LiveSync()
        let statusBar = Recorder()
        sync.add(statusBar)
        sync.start(session)
        try await Self.waitUntil { statusBar.log.contains("event 1") }
        #expect(statusBar.log == ["connecting", "live", "event 1"])

        // A listener that arrives later is told where things stand.
        let late = Recorder()
        sync.add(late)
        #expect(late.log == ["live"])

        // Going live drained the outbox: the waiting message went out.
        try await Self.waitUntil { accepted.entries == ["bob:written offline"] }
        #expect(accepted.entries == ["bob:written offline"])
        // (Read by its id: the mock's server ids are not in the order of the messages' times.)
        try await Self.waitUntil { try await session.database.messages.fetch(id: waiting.id)?.state == .sent }
        #expect(try await session.database.messages.fetch(id: waiting.id)?.state == .sent)

        sync.stop()
        #expect(sync.connection == nil)
    }
}
