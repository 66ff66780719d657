import ChirpModels
import Foundation
import NIOCore
import Synchronization
import Testing

@testable import ChirpServer

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

    @Test func aSocketUnwritableLongerThanTheLimitCountsAsStalled() {
        let start = NIODeadline.now()
        var clock = StallClock()
        #expect(!clock.isStalled(limit: .seconds(15), at: start + .seconds(60)))
        clock.writabilityChanged(writable: false, at: start)
        clock.writabilityChanged(writable: false, at: start + .seconds(10))  // still the first moment
        #expect(!clock.isStalled(limit: .seconds(15), at: start + .seconds(14)))
        #expect(clock.isStalled(limit: .seconds(15), at: start + .seconds(16)))
        clock.writabilityChanged(writable: true, at: start + .seconds(17))
        #expect(!clock.isStalled(limit: .seconds(15), at: start + .seconds(60)))
    }

    @Test func aPingIntervalBecomesEvenRoundsAtMostFiveSecondsApart() {
        for (interval, period, pingEvery) in [
            (Duration.seconds(20), Duration.seconds(5), 4), (.seconds(12), .seconds(4), 3),
            (.seconds(5), .seconds(5), 1), (.milliseconds(300), .milliseconds(300), 1),
        ] {
            let keeper = StreamKeeper(pingInterval: interval)
            #expect(keeper.period == period, "\(interval)")
            #expect(keeper.pingEvery == pingEvery, "\(interval)")
        }
    }

    @Test func theKeeperChecksEveryStreamAndPingsOnItsRound() {
        let keeper = StreamKeeper(period: .seconds(3600), pingEvery: 4)
        let calls = Mutex<[Bool]>([])
        let first = NSObject()
        let second = NSObject()
        keeper.add(ObjectIdentifier(first)) { ping in calls.withLock { $0.append(ping) } }
        keeper.add(ObjectIdentifier(second)) { ping in calls.withLock { $0.append(ping) } }
        keeper.checkAll(ping: true)
        #expect(calls.withLock { $0 } == [true, true])
        keeper.remove(ObjectIdentifier(first))
        keeper.checkAll(ping: false)
        #expect(calls.withLock { $0 } == [true, true, false])
        #expect(keeper.count == 1)
    }
}
