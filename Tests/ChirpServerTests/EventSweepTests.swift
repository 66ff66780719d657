@testable import ChirpServer
import Synchronization
import Testing

/// The hub's sweep, the safety net that makes every stream re-read storage once a period:
/// spread over the period one slice at a time, never all listeners at once.
@Suite("Event hub sweep")
struct EventSweepTests {
    @Test func aSliceWakesOnlyItsListenersAndTheSlicesShareThemOut() {
        let hub = EventHub(sweepPeriod: .seconds(3_600))
        let woken = Mutex<Set<Int>>([])
        let count = 3 * EventHub.sweepSlices + 5
        let listeners = (0..<count).map { index in
            hub.listen(userId: Int64(index), onWake: { woken.withLock { _ = $0.insert(index) } })
        }
        defer { listeners.forEach(hub.remove) }
        let sizes = Dictionary(grouping: listeners, by: \.sweepSlice).mapValues(\.count)
        #expect(sizes.count == EventHub.sweepSlices, "every slice has listeners")
        #expect(sizes.values.max()! - sizes.values.min()! <= 1, "dealt evenly: \(sizes)")

        hub.wake(sweepSlice: 3)
        let expected = Set(listeners.indices.filter { listeners[$0].sweepSlice == 3 })
        #expect(woken.withLock { $0 } == expected)
        #expect(expected.count == sizes[3])
    }

    @Test func withinAPeriodEveryListenerIsWokenByTheSweep() async throws {
        let hub = EventHub(sweepPeriod: .milliseconds(500))
        let woken = Mutex<Set<Int>>([])
        let listeners = (0..<60).map { index in
            hub.listen(userId: Int64(index), onWake: { woken.withLock { _ = $0.insert(index) } })
        }
        defer { listeners.forEach(hub.remove) }
        // Each is due within 0.5 s; a loaded machine may take far longer to run the sweep's task.
        let deadline = ContinuousClock.now + .seconds(60)
        while woken.withLock({ $0.count }) < 60, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(woken.withLock { $0.count } == 60)
    }
}
