import Synchronization
import Testing

@testable import ChirpServer

/// The hub's sweep, the safety net that makes every stream re-read storage once a period:
/// spread over the period one slice at a time, never all listeners at once, and never in a
/// stream's first period.
@Suite("Event hub sweep")
struct EventSweepTests {
    @Test func aSliceWakesOnlyItsListenersAndTheSlicesShareThemOut() async {
        let hub = EventHub(sweepPeriod: .seconds(3_600))
        let woken = Mutex<Set<Int>>([])
        let count = 3 * EventHub.sweepSlices + 5
        let listeners = (0..<count).map { index in
            hub.listen(userId: Int64(index), onWake: { woken.withLock { _ = $0.insert(index) } })
        }
        defer { listeners.forEach(hub.remove) }
        let sizes = Dictionary(grouping: listeners, by: { $0.sweepSlice ?? -1 }).mapValues(\.count)
        #expect(sizes.count == EventHub.sweepSlices, "every slice has listeners")
        #expect(sizes.values.max()! - sizes.values.min()! <= 1, "dealt evenly: \(sizes)")

        let longPoll = hub.listen(userId: 0)
        defer { hub.remove(longPoll) }
        #expect(longPoll.sweepSlice == nil, "a long poll's listener is left to its own timeout")

        await hub.sweep(slice: 3, now: .now + .seconds(3_600))
        let expected = Set(listeners.indices.filter { listeners[$0].sweepSlice == 3 })
        #expect(woken.withLock { $0 } == expected)
        #expect(expected.count == sizes[3])
    }

    @Test func aListenerIsLeftAloneForItsFirstPeriod() async throws {
        let hub = EventHub(sweepPeriod: .seconds(3_600))
        let woken = Mutex(0)
        let listener = hub.listen(userId: 1, onWake: { woken.withLock { $0 += 1 } })
        defer { hub.remove(listener) }
        let slice = try #require(listener.sweepSlice)
        await hub.sweep(slice: slice, now: listener.listeningSince + .seconds(3_599))
        #expect(woken.withLock { $0 } == 0, "a stream that has just read storage is not swept")
        await hub.sweep(slice: slice, now: listener.listeningSince + .seconds(3_600))
        #expect(woken.withLock { $0 } == 1, "a period after it started, its slice wakes it")
    }

    @Test func withStreamHeadsOnlyTheStreamsBehindAreWoken() async throws {
        let hub = EventHub(sweepPeriod: .seconds(3_600))
        let asked = Mutex<[[Int64]]>([])
        hub.sweepAgainst(streamHeads: { ids in
            asked.withLock { $0.append(ids.sorted()) }
            return [1: 7, 2: 7]  // user 3 has no events: head 0
        })
        let woken = Mutex<Set<String>>([])
        func listen(_ name: String, user: Int64) -> EventListener {
            hub.listen(userId: user, onWake: { woken.withLock { _ = $0.insert(name) } })
        }
        // Dealt round the slices one after another: take a whole round so each lands in its own.
        var listeners: [String: EventListener] = [:]
        listeners["upToDate"] = listen("upToDate", user: 1)
        listeners["behind"] = listen("behind", user: 2)
        listeners["silent"] = listen("silent", user: 3)
        listeners["unsaid"] = listen("unsaid", user: 1)
        defer { listeners.values.forEach(hub.remove) }
        listeners["upToDate"]!.noteSent(upTo: 7)
        listeners["behind"]!.noteSent(upTo: 6)
        listeners["silent"]!.noteSent(upTo: 0)
        let later = ContinuousClock.now + .seconds(3_600)
        for slice in Set(listeners.values.compactMap(\.sweepSlice)) { await hub.sweep(slice: slice, now: later) }
        #expect(woken.withLock { $0 } == ["behind", "unsaid"], "a stream that has said nothing yet is woken too")
        #expect(asked.withLock { $0.map(\.count) } == [1, 1, 1, 1], "one query a slice, for its listeners' users")
    }

    @Test func whenTheHeadsCannotBeReadEveryDueListenerIsWoken() async throws {
        struct Unavailable: Error {}
        let hub = EventHub(sweepPeriod: .seconds(3_600))
        hub.sweepAgainst(streamHeads: { _ in throw Unavailable() })
        let woken = Mutex(0)
        let listener = hub.listen(userId: 1, onWake: { woken.withLock { $0 += 1 } })
        defer { hub.remove(listener) }
        listener.noteSent(upTo: 7)
        await hub.sweep(slice: try #require(listener.sweepSlice), now: .now + .seconds(3_600))
        #expect(woken.withLock { $0 } == 1)
    }

    @Test func withinTwoPeriodsEveryListenerIsWokenByTheSweep() async throws {
        let hub = EventHub(sweepPeriod: .milliseconds(500))
        let woken = Mutex<Set<Int>>([])
        let listeners = (0..<60).map { index in
            hub.listen(userId: Int64(index), onWake: { woken.withLock { _ = $0.insert(index) } })
        }
        defer { listeners.forEach(hub.remove) }
        // Each is due within two periods (1 s); a loaded machine may take far longer to run the sweep's task.
        let deadline = ContinuousClock.now + .seconds(60)
        while woken.withLock({ $0.count }) < 60, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(woken.withLock { $0.count } == 60)
    }
}
