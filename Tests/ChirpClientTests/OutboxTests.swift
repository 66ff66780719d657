import ChirpModels
import ChirpNetworking
import ChirpPersistence
import Foundation
import Synchronization
import Testing

@testable import ChirpClient

/// The outbox against `MockTransport` with a clock that never waits. Rows a test wants
/// queued before anything is sent are written with `ledger.addPending` (what `enqueue` stores
/// before it starts a drain).
@Suite("Outbox")
struct OutboxTests {
    @Test func whatTheUserTypedIsCommittedToSurviveAPowerCut() throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        #expect(session.database.store.durability == .powerLoss)
    }

    @Test func pendingMessagesGoOutInWrittenOrderPerConversation() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let accepted = Fixture.acceptSends(mock)
        for text in ["b1", "b2", "b3"] { _ = try await session.ledger.addPending(to: "bob", text: text) }
        for text in ["c1", "c2"] { _ = try await session.ledger.addPending(to: "carol", text: text) }
        #expect(try await session.pendingMessages().map(\.text) == ["b1", "b2", "b3", "c1", "c2"])

        let report = try await session.drainOutbox()
        #expect(report.sent.count == 5 && report.failed.isEmpty && report.isDrained)
        #expect(accepted.entries.filter { $0.hasPrefix("bob:") } == ["bob:b1", "bob:b2", "bob:b3"])
        #expect(accepted.entries.filter { $0.hasPrefix("carol:") } == ["carol:c1", "carol:c2"])
        let stored = try await session.database.messages(with: "bob")
        #expect(stored.map(\.state) == [.sent, .sent, .sent])
        #expect(stored.allSatisfy { $0.serverId != nil })
        // Nothing left: a second drain sends nothing.
        #expect(try await session.drainOutbox().sent.isEmpty)
        #expect(accepted.entries.count == 5)
    }

    @Test func transientFailuresAreRetriedByTheNetworkLayerWithTheSameClientId() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let busy = BusyCounter(failures: 4)
        let accepted = Fixture.acceptSends(mock) { _ in busy.next() }
        let pending = try await session.ledger.addPending(to: "bob", text: "hello")

        let report = try await session.drainOutbox()
        #expect(report.sent.map(\.clientMessageId) == [pending.clientMessageId])
        #expect(accepted.entries == ["bob:hello"])
        let paths = Set(mock.requests.filter { $0.method == .put }.map(\.url.path))
        #expect(paths == ["/v1/conversations/bob/messages/\(pending.clientMessageId)"])
        #expect(mock.requests.filter { $0.method == .put }.count == 5)
        // One retry loop: the network layer's backoff (250 ms doubling, half of it jitter),
        // four waits for four failures, and no rounds of the outbox's own around them.
        let expected: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)]
        #expect(clock.sleeps.count == 4, "\(clock.sleeps)")
        #expect(zip(clock.sleeps, expected).allSatisfy { $0 >= $1 / 2 && $0 <= $1 }, "\(clock.sleeps)")
        #expect(try await session.database.messages.fetch(id: pending.id)?.state == .sent)
    }

    @Test func aRefusedMessageFailsWithTheReasonTheQueueGoesOnAndRetrySendsIt() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let refusing = RefusalSwitch()
        let accepted = Fixture.acceptSends(mock) { text in
            text == "first" && refusing.isOn
                ? Fixture.error(403, code: "dm_not_allowed", message: "bob does not follow you yet") : nil
        }
        let first = try await session.ledger.addPending(to: "bob", text: "first")
        _ = try await session.ledger.addPending(to: "bob", text: "second")

        let report = try await session.drainOutbox()
        #expect(report.failed.map(\.id) == [first.id])
        #expect(report.sent.map(\.text) == ["second"])
        let failed = try #require(try await session.database.messages.fetch(id: first.id))
        #expect(failed.state == .failed)
        #expect(failed.failure == "bob does not follow you yet")
        #expect(mock.requests.filter { $0.method == .put }.count == 2, "a 403 is not retried")

        refusing.isOn = false
        let retried = try await session.retry(first.id)
        #expect(retried.sent.map(\.id) == [first.id])
        #expect(accepted.entries == ["bob:second", "bob:first"])
        await #expect(throws: OutboxError.notFailed(first.id)) { try await session.retry(first.id) }
    }

    @Test func aRefusedSendIsLoggedAsAnErrorWithoutTheMessageText() async throws {
        let mock = MockTransport()
        let session = try Fixture.session(mock, clock: TestClock())
        _ = Fixture.acceptSends(mock) { _ in
            Fixture.error(403, code: "dm_not_allowed", message: "bob does not follow you yet")
        }
        let logs = CapturedLogs()
        let outbox = Outbox(ledger: session.ledger, api: session.api, logger: logs.logger("chirp.outbox"))
        _ = try await session.ledger.addPending(to: "bob", text: "a secret plan")
        let report = try await outbox.drain().value
        #expect(report.failed.count == 1)
        let errors = logs.all.filter { $0.level == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.allText.contains("dm_not_allowed") == true, "\(errors)")
        #expect(
            !logs.all.contains { $0.allText.contains("secret") || $0.allText.contains("token") },
            "no text or token in the log")
    }

    @Test func anUnreachableServerLeavesTheWholeQueueWaitingInOrder() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let accepted = Fixture.acceptSends(mock)
        mock.faults = .init(failureRate: 1)
        for text in ["one", "two", "three"] { _ = try await session.ledger.addPending(to: "bob", text: text) }

        let report = try await session.drainOutbox()
        #expect(report.sent.isEmpty && report.failed.isEmpty)
        #expect(report.stillPending == 3)
        #expect(report.blockedBy?.status == nil && report.blockedBy != nil)
        let tried = Set(mock.requests.map(\.url.lastPathComponent))
        #expect(tried.count == 1, "only the head of the queue was tried")
        #expect(
            mock.requests.count == 3,
            "one pass: the first try and the network layer's two quick retries when nothing connects")
        #expect(try await session.pendingMessages().map(\.text) == ["one", "two", "three"])

        mock.faults = .init()
        #expect(try await session.drainOutbox().sent.map(\.text) == ["one", "two", "three"])
        #expect(accepted.entries == ["bob:one", "bob:two", "bob:three"])
    }

    @Test func invalidTextIsRejectedBeforeAnythingIsStored() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        await #expect(throws: OutboxError.self) { try await session.enqueue("   ", to: "bob") }
        #expect(try await session.pendingMessages().isEmpty)
    }

    @Test func enqueueReturnsThePendingRowBeforeAnyNetworkCallAnswers() async throws {
        let mock = MockTransport()
        let gate = GatedTransport(mock)  // the server never answers until the gate opens
        let session = try Fixture.session(mock, clock: TestClock(), transport: gate)
        let accepted = Fixture.acceptSends(mock)
        let changes = session.changes()

        let pending = try await session.enqueue("hello", to: "bob")
        #expect(pending.state == .pending && pending.text == "hello")
        #expect(accepted.entries.isEmpty, "nothing reached the server when enqueue returned")
        // The row is there for the screen at once, pending, and the ledger said so.
        #expect(try await session.messages(with: "bob", limit: 10, refresh: false).items.map(\.state) == [.pending])
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .messages(peer: "bob"))

        // The background drain is waiting on the server; when it answers, the row is sent.
        try await gate.waitUntilHeld()
        gate.open()
        let report = try await session.drainOutbox()
        #expect(accepted.entries == ["bob:hello"])
        #expect(report.isDrained)
        #expect(try await session.messages(with: "bob", limit: 10, refresh: false).items.map(\.state) == [.sent])
    }

    @Test func concurrentTriggersRunOneDrainAtATimeAndSendEachRowOnce() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let gate = GatedTransport(mock)
        let session = try Fixture.session(mock, clock: clock, transport: gate)
        let accepted = Fixture.acceptSends(mock)
        for index in 0..<10 { _ = try await session.ledger.addPending(to: "bob", text: "queued \(index)") }

        // Twenty triggers at once (drains, sends, enqueues) while the first pass waits on the server.
        let first = Task { try await session.drainOutbox() }
        try await gate.waitUntilHeld()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    switch index % 3 {
                    case 0: _ = try await session.drainOutbox()
                    case 1: _ = try await session.enqueue("more \(index)", to: "bob")
                    default: _ = try await session.send("sent \(index)", to: "bob")
                    }
                }
                if index == 5 { gate.open() }
            }
            try await group.waitForAll()
        }
        _ = try await first.value
        _ = try await session.drainOutbox()

        let puts = mock.requests.filter { $0.method == .put }.map(\.url.lastPathComponent)
        // Ten queued before, seven enqueued and six sent during: every row once.
        #expect(puts.count == 23, "\(puts.count) requests")
        #expect(Set(puts).count == puts.count, "no row was sent twice")
        #expect(accepted.entries.count == 23)
        #expect(gate.maxInFlight == 1, "one drain at a time, one conversation queue: one request at a time")
        #expect(try await session.pendingMessages().isEmpty)
    }
}

/// The single flight under the outbox, counted.
@Suite("Single flight")
struct SingleFlightTests {
    @Test func triggersDuringARunShareOneMorePassAfterIt() async throws {
        let runs = Mutex(0)
        let release = AsyncGate()
        let flight = SingleFlight<Int> {
            let run = runs.withLock {
                $0 += 1
                return $0
            }
            if run == 1 { await release.wait() }
            return run
        }
        let first = await flight.trigger()
        while runs.withLock({ $0 }) == 0 { await Task.yield() }
        let during = await (0..<10).asyncMap { _ in await flight.trigger() }
        release.open()
        #expect(try await first.value == 1)
        #expect(
            try await during.asyncMap { try await $0.value } == Array(repeating: 2, count: 10),
            "all ten share the second pass")
        #expect(runs.withLock { $0 } == 2)
        // Nothing running: the next trigger starts a pass of its own.
        #expect(try await flight.trigger().value == 3)
    }
}

/// A one-shot gate for a job to wait on.
final class AsyncGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

/// Answers 503 for the first `failures` calls.
final class BusyCounter: Sendable {
    private let remaining: Mutex<Int>
    init(failures: Int) { remaining = Mutex(failures) }
    func next() -> MockTransport.Answer? {
        remaining.withLock { count in
            guard count > 0 else { return nil }
            count -= 1
            return Fixture.error(503, code: "unavailable", message: "busy")
        }
    }
}

/// A switch a test flips while a mock keeps answering.
final class RefusalSwitch: Sendable {
    private let state = Mutex(true)
    var isOn: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
