import ChirpModels
import ChirpNetworking
import Foundation
import Synchronization
import Testing

@testable import ChirpClient

/// The sync engine against `MockTransport` (catch-up, long-poll) and a scripted live source,
/// with a clock that never waits.
@Suite("Sync engine")
struct SyncEngineTests {
    static func page(_ events: [Event], lastSeq: Int64) -> MockTransport.Answer {
        Fixture.reply(200, EventsResponse(events: events, lastSeq: lastSeq))
    }

    @Test func catchUpAppliesEventsOnceAndMovesDeliveryStatesForward() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        // alice's message is still pending locally when its event arrives.
        let pending = try await session.ledger.addPending(to: "bob", text: "hi bob")
        let mine = Fixture.message(1, from: "alice", to: "bob", text: "hi bob", clientId: pending.clientMessageId)
        let theirs = Fixture.message(2, from: "bob", to: "alice", text: "hi alice")
        let events = [
            Fixture.event(1, .messageCreated(mine)),
            Fixture.event(2, .messageCreated(theirs)),
            Fixture.event(3, .messageRead(ReadReceipt(reader: "bob", peer: "alice", upTo: "1"))),
        ]
        mock.stub(.get, "/v1/events", answers: [Self.page(events, lastSeq: 3), Self.page([], lastSeq: 3)])

        #expect(try await session.sync.catchUp() == 3)
        #expect(try await session.sync.lastSeq() == 3)
        #expect(try await session.database.lastSeq() == 3)
        let stored = try await session.database.messages(with: "bob")
        #expect(stored.map(\.text) == ["hi bob", "hi alice"])
        #expect(stored.map(\.state) == [.read, .received])
        #expect(stored[0].id == pending.id, "the pending row became the delivered one, not a second row")
        #expect(try await session.database.pendingMessages().isEmpty)
        let conversation = try #require(try await session.database.conversations.fetch(id: "bob"))
        #expect(conversation.unreadCount == 1)
        #expect(conversation.lastText == "hi alice")

        // Replaying the same events (a second process, a crash before the cursor moved) changes nothing.
        let fresh = SyncEngine(
            ledger: session.ledger, api: session.api, source: ScriptedEventSource([]), clock: clock.clock)
        for event in events { _ = try await fresh.apply(event) }
        #expect(try await session.database.messages(with: "bob").map(\.state) == [.read, .received])
        #expect(try await session.database.conversations.fetch(id: "bob")?.unreadCount == 1)
    }

    @Test func aGapInTheLiveStreamIsFilledOverHTTPBeforeGoingOn() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let seen = SeenEvents()
        let m = (1...3).map { Fixture.message($0, from: "bob", to: "alice", text: "m\($0)") }
        let source = ScriptedEventSource([
            { onOpen, onEvent in
                await onOpen()
                try await onEvent(Fixture.event(1, .messageCreated(m[0])))
                try await onEvent(Fixture.event(3, .messageCreated(m[2])))  // 2 never came over the socket
                try await onEvent(Fixture.event(3, .messageCreated(m[2])))  // and a duplicate
                seen.finish()
            }
        ])
        let session = try Fixture.session(mock, clock: clock, source: source)
        mock.stub(
            .get, "/v1/events",
            answers: [
                Self.page([], lastSeq: 0),  // the catch-up before connecting
                Self.page(
                    [Fixture.event(2, .messageCreated(m[1])), Fixture.event(3, .messageCreated(m[2]))], lastSeq: 3),
                Self.page([], lastSeq: 3),
            ])
        let run = Task { await session.sync.run(onEvent: { seen.add($0) }) }
        try await seen.waitUntilFinished()
        run.cancel()
        await run.value

        #expect(seen.seqs == [1, 2, 3])
        #expect(try await session.database.messages(with: "bob").map(\.text) == ["m1", "m2", "m3"])
        #expect(try await session.sync.lastSeq() == 3)
    }

    @Test func reconnectsWithBackoffAndResumesAfterTheLastAppliedSeq() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let states = SeenStates()
        let source = ScriptedEventSource([
            { _, _ in throw LiveStreamError("connection refused") },
            { onOpen, onEvent in
                await onOpen()
                try await onEvent(Fixture.event(1, .typing(TypingNotice(from: "bob"))).withoutSeq)
                try await onEvent(Fixture.event(1, .followCreated(FollowNotice(follower: Fixture.user("bob")))))
                try await onEvent(
                    Fixture.event(
                        2,
                        .tweetCreated(
                            Tweet(
                                id: "7", clientTweetId: "t", author: Fixture.user("bob"), text: "tweet",
                                createdAt: Timestamp(millisecondsSince1970: 0)))))
                throw LiveStreamError("connection reset")
            },
        ])
        let session = try Fixture.session(mock, clock: clock, source: source)
        mock.stub(.get, "/v1/events", answers: [Self.page([], lastSeq: 0)])
        let run = Task { await session.sync.run(onState: { states.add($0) }) }
        while source.requestedSince.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        run.cancel()
        await run.value

        #expect(source.requestedSince == [0, 0, 2])
        #expect(states.reconnectAttempts == [1, 1], "the counter starts over once a connection opened")
        #expect(clock.sleeps.count == 2 && clock.sleeps.allSatisfy { $0 > .zero && $0 <= .seconds(15) })
        #expect(session.sync.typing.typingPeers() == ["bob"])
        #expect(
            try await session.database.follows.fetch(FollowEntry.list("followers", of: "alice")).map(\.username) == [
                "bob"
            ])
        #expect(try await session.database.timeline.fetch(.all).map(\.text) == ["tweet"])
    }

    @Test func aSyncFailureIsLoggedAsAnErrorWithoutTheToken() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let session = try Fixture.session(mock, clock: clock)
        mock.stub(.get, "/v1/events", answers: [Fixture.error(500, code: "internal", message: "boom")])
        let logs = CapturedLogs()
        let engine = SyncEngine(
            ledger: session.ledger, api: session.api, source: ScriptedEventSource([]), clock: clock.clock,
            logger: logs.logger("chirp.sync"))
        let run = Task { await engine.run() }
        let deadline = ContinuousClock.now + .seconds(90)
        while logs.all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        run.cancel()
        await run.value
        let first = try #require(logs.all.first)
        #expect(first.level == .error)
        #expect(first.allText.contains("500"), "\(first.allText)")
        #expect(!logs.all.contains { $0.allText.contains("token") || $0.allText.contains("Bearer") })
    }

    @Test func fallsBackToLongPollingWhenTheWebSocketCannotOpen() async throws {
        let mock = MockTransport()
        let clock = TestClock()
        let seen = SeenEvents()
        let refuse: ScriptedEventSource.Script = { _, _ in throw LiveStreamError("426 upgrade refused by a proxy") }
        let source = ScriptedEventSource(Array(repeating: refuse, count: 50))
        let session = try Fixture.session(mock, clock: clock, source: source)
        let message = Fixture.message(1, from: "bob", to: "alice", text: "by long-poll")
        mock.stub(
            .get, "/v1/events",
            answers: [
                Self.page([], lastSeq: 0), Self.page([], lastSeq: 0), Self.page([], lastSeq: 0),
                Self.page([Fixture.event(1, .messageCreated(message))], lastSeq: 1), Self.page([], lastSeq: 1),
            ])
        let run = Task {
            await session.sync.run(onEvent: {
                seen.add($0)
                seen.finish()
            })
        }
        try await seen.waitUntilFinished()
        run.cancel()
        await run.value

        #expect(seen.seqs == [1])
        let polls = mock.requests.filter { $0.url.query?.contains("wait=25") == true }
        #expect(!polls.isEmpty, "a long-poll request was made")
    }

    @Test func remoteTypingExpiresAfterThirtySecondsOrWhenAMessageArrives() {
        let clock = TestClock()
        let tracker = TypingTracker(clock: clock.clock)
        tracker.noteTyping(from: "Bob")
        tracker.noteTyping(from: "carol")
        #expect(tracker.typingPeers() == ["bob", "carol"])
        tracker.noteMessage(from: "carol")
        #expect(tracker.typingPeers() == ["bob"])
        clock.advance(.seconds(29))
        #expect(tracker.typingPeers() == ["bob"])
        clock.advance(.seconds(1))
        #expect(tracker.typingPeers().isEmpty)
    }

    @Test func typingNoticesGoOutOncePerBurstAndStopAfterSevenIdleSeconds() async {
        let clock = TestClock()
        let sent = SentNotices()
        let sender = TypingSender(clock: clock.clock) { sent.add($0) }
        #expect(await sender.keystroke(to: "bob"))
        clock.advance(.seconds(2))
        #expect(await !sender.keystroke(to: "bob"))
        #expect(sender.isTyping(to: "bob"))
        clock.advance(.seconds(7))
        #expect(!sender.isTyping(to: "bob"), "seven idle seconds end the burst")
        #expect(await sender.keystroke(to: "bob"), "a new burst sends again")
        // A long burst repeats the notice every 20 s so the peer's 30 s expiry never lapses.
        for _ in 0..<5 {
            clock.advance(.seconds(5))
            await sender.keystroke(to: "bob")
        }
        #expect(sent.peers == ["bob", "bob", "bob"])
        sender.stopped(to: "bob")
        #expect(await sender.keystroke(to: "bob"))
    }
}

extension Event {
    /// The same event as a live-only one (`seq` null).
    var withoutSeq: Event { Event(seq: nil, createdAt: createdAt, payload: payload) }
}

extension Fixture {
    static func user(_ name: String) -> User {
        User(
            id: "9", username: name, displayName: name, createdAt: Timestamp(millisecondsSince1970: 0),
            followersCount: 0, followingCount: 0)
    }
}

/// Events a test saw, and a signal that the scenario finished.
final class SeenEvents: Sendable {
    private let state = Mutex<(events: [Event], finished: Bool)>(([], false))
    func add(_ event: Event) { state.withLock { $0.events.append(event) } }
    func finish() { state.withLock { $0.finished = true } }
    var seqs: [Int64] { state.withLock { $0.events.compactMap(\.seq) } }
    func waitUntilFinished() async throws {
        // Generous: under a full parallel test run the local database's fsyncs can queue behind
        // other tests' disk work. It returns as soon as the scenario finishes.
        let deadline = ContinuousClock.now + .seconds(120)
        while !state.withLock({ $0.finished }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Connection states a test saw.
final class SeenStates: Sendable {
    private let states = Mutex<[SyncEngine.ConnectionState]>([])
    func add(_ state: SyncEngine.ConnectionState) { states.withLock { $0.append(state) } }
    var reconnectAttempts: [Int] {
        states.withLock { $0.compactMap { if case .reconnecting(let attempt, _, _) = $0 { attempt } else { nil } } }
    }
}

/// Peers a typing sender notified.
final class SentNotices: Sendable {
    private let state = Mutex<[String]>([])
    func add(_ peer: String) { state.withLock { $0.append(peer) } }
    var peers: [String] { state.withLock { $0 } }
}
