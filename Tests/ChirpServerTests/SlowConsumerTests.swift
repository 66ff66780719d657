@testable import ChirpServer
import ChirpModels
import Testing

/// What bounds a slow WebSocket reader's cost to the server.
@Suite("Slow consumers")
struct SlowConsumerTests {
    @Test func aListenerHoldsAtMostItsCapacityOfLiveEventsThenCountsAsOverflowed() {
        let hub = EventHub()
        let listener = hub.listen(userId: 1)
        for index in 0..<EventListener.liveCapacity {
            hub.publishLive(to: 1, type: EventType.typing, payload: TypingNotice(from: "u\(index)"), at: .now())
        }
        #expect(!listener.overflowed)
        hub.publishLive(to: 1, type: EventType.typing, payload: TypingNotice(from: "one too many"), at: .now())
        #expect(listener.overflowed)
        #expect(listener.takeLiveEvents().count == EventListener.liveCapacity)
        #expect(listener.takeLiveEvents().isEmpty)
    }

    @Test func aWriteThatNeverCompletesEndsTheConnectionsTasks() async throws {
        let monitor = StallMonitor(period: .milliseconds(20))
        let watch = WriteStallWatch(limit: .milliseconds(100))
        monitor.add(watch)
        await #expect(throws: WriteStallWatch.Stalled.self) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await watch.timed { try await Task.sleep(for: .seconds(60)) } }
                group.addTask { try await watch.waitForStall() }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    @Test func writesThatCompleteDoNotTripTheWatch() async throws {
        let watch = WriteStallWatch(limit: .seconds(2))
        let start = ContinuousClock.now
        for _ in 0..<10 {
            try await watch.timed { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!watch.isStalled(at: .now))
        }
        #expect(!watch.isStalled(at: start + .seconds(60)), "no write in progress, however late")
        try await watch.timed {
            #expect(watch.isStalled(at: .now + .seconds(3)), "a write in progress for longer than the limit")
        }
        let waiting = Task { try await watch.waitForStall() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
