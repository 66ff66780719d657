import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpPersistence
import Foundation
import Synchronization
import Testing

/// The outbox against `MockTransport` with a clock that never waits.
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
        for text in ["b1", "b2", "b3"] { _ = try await session.outbox.enqueue(to: "bob", text: text) }
        for text in ["c1", "c2"] { _ = try await session.outbox.enqueue(to: "carol", text: text) }
        #expect(try await session.database.pendingMessages().map(\.text) == ["b1", "b2", "b3", "c1", "c2"])

        let report = try await session.outbox.flush()
        #expect(report.sent.count == 5 && report.failed.isEmpty && report.isDrained)
        #expect(accepted.entries.filter { $0.hasPrefix("bob:") } == ["bob:b1", "bob:b2", "bob:b3"])
        #expect(accepted.entries.filter { $0.hasPrefix("carol:") } == ["carol:c1", "carol:c2"])
        let stored = try await session.database.messages(with: "bob")
        #expect(stored.map(\.state) == [.sent, .sent, .sent])
        #expect(stored.allSatisfy { $0.serverId != nil })
        // Nothing left: a second flush sends nothing.
        #expect(try await session.outbox.flush().sent.isEmpty)
        #expect(accepted.entries.count == 5)
    }

    @Test func transientFailuresAreRetriedWithTheSameClientId() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let busy = BusyCounter(failures: 4)
        let accepted = Fixture.acceptSends(mock) { _ in busy.next() }
        let pending = try await session.outbox.enqueue(to: "bob", text: "hello")

        let report = try await session.outbox.flush()
        #expect(report.sent.map(\.clientMessageId) == [pending.clientMessageId])
        #expect(accepted.entries == ["bob:hello"])
        let paths = Set(mock.requests.filter { $0.method == .put }.map(\.url.path))
        #expect(paths == ["/v1/conversations/bob/messages/\(pending.clientMessageId)"])
        #expect(mock.requests.filter { $0.method == .put }.count == 5)
        #expect(clock.sleeps.contains(.milliseconds(250)), "the outbox waited between rounds: \(clock.sleeps)")
        #expect(try await session.database.messages.fetch(id: pending.id)?.state == .sent)
    }

    @Test func aRefusedMessageFailsWithTheReasonTheQueueGoesOnAndRetrySendsIt() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let refusing = RefusalSwitch()
        let accepted = Fixture.acceptSends(mock) { text in
            text == "first" && refusing.isOn ? Fixture.error(403, code: "dm_not_allowed", message: "bob does not follow you yet") : nil
        }
        let first = try await session.outbox.enqueue(to: "bob", text: "first")
        _ = try await session.outbox.enqueue(to: "bob", text: "second")

        let report = try await session.outbox.flush()
        #expect(report.failed.map(\.id) == [first.id])
        #expect(report.sent.map(\.text) == ["second"])
        let failed = try #require(try await session.database.messages.fetch(id: first.id))
        #expect(failed.state == .failed)
        #expect(failed.failure == "bob does not follow you yet")
        #expect(mock.requests.filter { $0.method == .put }.count == 2, "a 403 is not retried")

        refusing.isOn = false
        let retried = try await session.outbox.retry(first.id)
        #expect(retried.sent.map(\.id) == [first.id])
        #expect(accepted.entries == ["bob:second", "bob:first"])
        await #expect(throws: OutboxError.notFailed(first.id)) { try await session.outbox.retry(first.id) }
    }

    @Test func anUnreachableServerLeavesTheWholeQueueWaitingInOrder() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        let accepted = Fixture.acceptSends(mock)
        mock.faults = .init(failureRate: 1)
        for text in ["one", "two", "three"] { _ = try await session.outbox.enqueue(to: "bob", text: text) }

        let report = try await session.outbox.flush()
        #expect(report.sent.isEmpty && report.failed.isEmpty)
        #expect(report.stillPending == 3)
        #expect(report.blockedBy?.status == nil && report.blockedBy != nil)
        let tried = Set(mock.requests.map(\.url.lastPathComponent))
        #expect(tried.count == 1, "only the head of the queue was tried")
        #expect(try await session.database.pendingMessages().map(\.text) == ["one", "two", "three"])

        mock.faults = .init()
        #expect(try await session.outbox.flush().sent.map(\.text) == ["one", "two", "three"])
        #expect(accepted.entries == ["bob:one", "bob:two", "bob:three"])
    }

    @Test func invalidTextIsRejectedBeforeAnythingIsStored() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        await #expect(throws: OutboxError.self) { try await session.outbox.enqueue(to: "bob", text: "   ") }
        #expect(try await session.database.pendingMessages().isEmpty)
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
