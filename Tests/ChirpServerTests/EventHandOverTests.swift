import ChirpModels
import Testing

@testable import ChirpServer

/// Committed events handed to a stream with its wake-up: used only when they are exactly the
/// next seqs, otherwise the stream re-reads storage.
@Suite("Event hand-over")
struct EventHandOverTests {
    static func event(_ seq: Int64) -> StoredEvent {
        StoredEvent(
            seq: seq, type: EventType.messageCreated, createdAt: Timestamp(millisecondsSince1970: seq), json: "{}")
    }

    @Test func theNextSeqsAreHandedOverInOrder() {
        let hub = EventHub()
        let listener = hub.listen(userId: 7)
        defer { hub.remove(listener) }
        hub.publish([AppendedEvent(userId: 7, event: Self.event(6)), AppendedEvent(userId: 8, event: Self.event(1))])
        hub.publish([AppendedEvent(userId: 7, event: Self.event(5))])
        #expect(listener.takeStoredEvents(after: 4)?.map(\.seq) == [5, 6], "sorted, and only this user's")
        #expect(listener.takeStoredEvents(after: 6) == [], "taken once")
    }

    @Test func aGapOrAnOverflowOrAWakeFromElsewhereMeansReadingStorage() {
        let hub = EventHub()
        let listener = hub.listen(userId: 7)
        defer { hub.remove(listener) }
        hub.publish([AppendedEvent(userId: 7, event: Self.event(7))])
        #expect(listener.takeStoredEvents(after: 5) == nil, "seq 6 is missing")

        hub.publish([AppendedEvent(userId: 7, event: Self.event(3)), AppendedEvent(userId: 7, event: Self.event(4))])
        #expect(listener.takeStoredEvents(after: 3)?.map(\.seq) == [4], "already-sent seqs are dropped")

        hub.publish(
            (1...Int64(EventListener.storedCapacity + 1)).map { AppendedEvent(userId: 7, event: Self.event($0)) })
        #expect(listener.takeStoredEvents(after: 0) == nil, "too many to hold")
        #expect(listener.takeStoredEvents(after: 0) == [], "the next round starts afresh")

        hub.publish([AppendedEvent(userId: 7, event: Self.event(1))])
        hub.notify([7])
        #expect(listener.takeStoredEvents(after: 0) == nil, "a wake-up without events (another instance, the sweep)")
    }
}
