import ChirpModels
import ChirpNetworking
import Foundation
import Testing

@testable import ChirpClient

/// The façade's reads: local rows, refreshed through the data center into the ledger.
@Suite("User session")
struct UserSessionTests {
    @Test func concurrentRefreshesOfOneConversationShareOneRequest() async throws {
        let mock = MockTransport()
        let gate = GatedTransport(mock)
        let session = try Fixture.session(mock, clock: TestClock(), transport: gate)
        let page = Page(items: [Fixture.message(1, from: "bob", to: "alice", text: "hi")], nextCursor: nil)
        mock.stub(.get, "/v1/conversations/bob/messages", answers: [Fixture.reply(200, page)])
        let first = Task { try await session.messages(with: "bob", limit: 20, refresh: true) }
        try await gate.waitUntilHeld()
        let second = Task { try await session.messages(with: "bob", limit: 20, refresh: true) }
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        #expect(try await first.value.items.map(\.text) == ["hi"])
        #expect(try await second.value.items.map(\.text) == ["hi"])
        #expect(mock.requests.count == 1, "the data center coalesced the two refreshes")
    }

    @Test func conversationsListFollowersNotYetWrittenToAfterTheConversations() async throws {
        let mock = MockTransport()
        let session = try Fixture.session(mock, clock: TestClock())
        let bob = Conversation(
            peer: Fixture.user("bob"), lastMessage: Fixture.message(3, from: "bob", to: "alice", text: "yo"),
            unreadCount: 1)
        mock.stub(.get, "/v1/conversations", answers: [Fixture.reply(200, Page(items: [bob], nextCursor: nil))])
        mock.stub(
            .get, "/v1/users/alice/followers",
            answers: [
                Fixture.reply(200, Page(items: [Fixture.user("carol"), Fixture.user("bob")], nextCursor: nil))
            ])
        let rows = try await session.conversations(refresh: true)
        #expect(rows.map(\.peerName) == ["bob", "carol"])
        #expect(rows.map(\.hasMessages) == [true, false])
        #expect(rows.first?.unreadCount == 1)
        #expect(try await session.conversations(refresh: false, includingFollowers: false).map(\.peerName) == ["bob"])
        #expect(try await session.follows(.followers, of: "alice", refresh: false).map(\.username) == ["carol", "bob"])
    }

    @Test func aRefreshThatFailsReachesTheCallerAndTheLocalRowsStay() async throws {
        let mock = MockTransport()
        let session = try Fixture.session(mock, clock: TestClock())
        try await session.ledger.record(Fixture.message(1, from: "bob", to: "alice", text: "kept"))
        mock.stub(
            .get, "/v1/conversations/bob/messages", answers: [Fixture.error(403, code: "forbidden", message: "no")])
        await #expect(throws: NetworkError.self) { try await session.messages(with: "bob", limit: 10, refresh: true) }
        #expect(try await session.messages(with: "bob", limit: 10, refresh: false).items.map(\.text) == ["kept"])
    }
}
