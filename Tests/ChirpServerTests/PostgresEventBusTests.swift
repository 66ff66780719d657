import ChirpModels
import Foundation
import Logging
import Testing

@testable import ChirpServer

/// A batch of sends reaches another instance's listeners through PostgreSQL's notifications:
/// with its events, numbered as the database numbered them, when they fit in one
/// notification, and as a wake-up that makes them read the database when they do not.
@Suite(
    "PostgreSQL event bus",
    .enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
struct PostgresEventBusTests {
    @Test func anotherInstanceIsHandedABatchsEventsAsTheDatabaseNumberedThem() async throws {
        try await Self.withListeningInstance { writer, reader, ann, bea, annListener, beaListener in
            let results = await writer.sendBatch(
                (0..<3).flatMap { n in
                    [
                        Self.pending(ann, "bea", "a\(n)", "to bea \(n)"),
                        Self.pending(bea, "ann", "b\(n)", "to ann \(n) | é"),
                    ]
                })
            #expect(results.allSatisfy { (try? $0.get())?.created == true })
            for (listener, user) in [(beaListener, bea), (annListener, ann)] {
                // The rows point at the messages; the stream builds each event from its row.
                let stored = try await reader.events(userId: user.id, since: 0, limit: 100).events.map(
                    EventService.event(from:))
                #expect(stored.map(\.seq) == Array(1...6) && stored.allSatisfy { !$0.json.isEmpty })
                // A wake-up that hands over nothing (`[]`, from the setup's writes, late on a
                // loaded machine) may come first; none may say "read the database" (nil).
                var handed: [StoredEvent] = []
                let deadline = ContinuousClock.now + .seconds(10)
                while handed.count < stored.count, ContinuousClock.now < deadline, await Self.fired(listener) {
                    guard let more = listener.takeStoredEvents(after: handed.last?.seq ?? 0) else {
                        Issue.record("\(user.username)'s listener was woken to read the database")
                        break
                    }
                    handed += more
                }
                #expect(handed == stored, "handed over, equal to what \(user.username)'s stream holds")
            }
        }
    }

    @Test func aBatchTooLargeForOneNotificationWakesTheListenersToRead() async throws {
        try await Self.withListeningInstance { writer, _, ann, _, _, beaListener in
            let long = String(repeating: "x", count: 2_000)
            let results = await writer.sendBatch((0..<5).map { Self.pending(ann, "bea", "long\($0)", long) })
            #expect(results.allSatisfy { (try? $0.get())?.created == true })
            // A wake-up that hands over nothing (`[]`, from earlier work) may come first; the
            // batch's own wake-up must say "read the database" (nil) and hand none of it over.
            var outcome: [StoredEvent]? = []
            let deadline = ContinuousClock.now + .seconds(10)
            while let handed = outcome, ContinuousClock.now < deadline {
                #expect(handed.isEmpty, "the batch's events are not handed over")
                guard await Self.fired(beaListener) else { break }
                outcome = beaListener.takeStoredEvents(after: 0)
            }
            #expect(outcome == nil, "woken to read the database")
        }
    }

    static func pending(_ from: Viewer, _ to: String, _ id: String, _ text: String) -> PendingSend {
        PendingSend(
            new: NewMessage(sender: from, recipient: to, clientMessageId: id, text: text, createdAt: .now()),
            decisions: RecordingDecisions())
    }

    /// Whether the listener fires within 5 s; re-armed for the next wait.
    static func fired(_ listener: EventListener) async -> Bool {
        let start = ContinuousClock.now
        await listener.wait(timeout: .seconds(5))
        listener.rearm()
        return ContinuousClock.now - start < .seconds(5)
    }

    /// Two instances on one database; the second listens for the first's notifications, with
    /// a listener for each of two users, ann and bea, on its hub, both drained once listening.
    static func withListeningInstance(
        _ body:
            @escaping @Sendable (PostgresStorage, PostgresStorage, Viewer, Viewer, EventListener, EventListener)
            async throws -> Void
    ) async throws {
        try await PostgresGroupCommitTests.withInstances(2) { instances in
            let (writer, reader) = (instances[0], instances[1])
            let ann = try await writer.account("ann", tokenHash: [1])
            let bea = try await writer.account("bea", tokenHash: [2])
            let hub = EventHub()
            let annListener = hub.listen(userId: ann.id)
            let beaListener = hub.listen(userId: bea.id)
            defer { [annListener, beaListener].forEach(hub.remove) }
            let bus = PostgresEventBus(storage: reader, hub: hub, logger: Logger(label: "chirp.test"))
            let listening = Task { try await bus.run() }
            defer { listening.cancel() }
            // Once it listens, the bus wakes every listener to read what it may have missed.
            for listener in [annListener, beaListener] {
                #expect(await fired(listener))
                _ = listener.takeStoredEvents(after: 0)
            }
            try await body(writer, reader, ann, bea, annListener, beaListener)
        }
    }
}
