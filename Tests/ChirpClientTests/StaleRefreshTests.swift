import ChirpDataCenter
import ChirpModels
import ChirpNetworking
import Foundation
import Testing

@testable import ChirpClient

/// A refresh whose reply the server wrote before a `message.read` event, and which the client
/// reads after applying the event: the ledger's forward-only merge keeps `read`.
@Suite("Stale refresh")
struct StaleRefreshTests {
    /// alice sent bob message 1 (stored `delivered`); a refresh of the conversation starts and
    /// the server's reply (holding `readByRecipient: false`) is held at the gate; bob's
    /// `message.read` is applied; then the reply arrives. Returns the state alice's row ends in.
    static func raceARefreshAgainstARead(writeRefreshesAroundTheLedger: Bool) async throws -> DeliveryState {
        let mock = MockTransport()
        let gate = GatedTransport(mock) { $0.method == .get && $0.url.path == "/v1/conversations/bob/messages" }
        let session = try Fixture.session(mock, clock: TestClock(), transport: gate)
        let message = Fixture.message(1, from: "alice", to: "bob", text: "hi bob")
        try await session.ledger.record(message)
        #expect(try await session.messages(with: "bob", limit: 10, refresh: false).items.map(\.state) == [.delivered])
        mock.stub(
            .get, "/v1/conversations/bob/messages",
            answers: [Fixture.reply(200, Page(items: [message], nextCursor: nil))])
        if writeRefreshesAroundTheLedger {
            // The old write path: the data center saving the reply's rows over the stored ones.
            let database = session.database
            session.dataCenter.register(
                RecordWriter<HistoryPage> { pages, _ in
                    try await database.messages.save(
                        pages.flatMap { $0.items.map { LocalMessage($0, viewer: "alice") } })
                })
        }

        let refresh = Task { try await session.messages(with: "bob", limit: 10, refresh: true) }
        try await gate.waitUntilHeld()  // the server has answered; the client has not read it yet
        let read = Fixture.event(1, .messageRead(ReadReceipt(reader: "bob", peer: "alice", upTo: "1")))
        #expect(try await session.sync.apply(read))
        #expect(try await session.messages(with: "bob", limit: 10, refresh: false).items.map(\.state) == [.read])
        gate.open()
        let page = try await refresh.value
        #expect(page.items.count == 1)
        return page.items[0].state
    }

    @Test func aRefreshReadBeforeAReadEventAndWrittenAfterItLeavesTheMessageRead() async throws {
        #expect(try await Self.raceARefreshAgainstARead(writeRefreshesAroundTheLedger: false) == .read)
    }

    @Test func theOldWritePathLosesTheRead() async throws {
        // The same race with the reply's rows saved as they are: `delivered` over `read`. This
        // is what the test above guards against, so the race it sets up is a real one.
        #expect(try await Self.raceARefreshAgainstARead(writeRefreshesAroundTheLedger: true) == .delivered)
    }

    @Test func aConversationRefreshDoesNotTakeTheListBackToAnOlderMessage() async throws {
        let mock = MockTransport()
        let session = try Fixture.session(mock, clock: TestClock())
        let older = Fixture.message(1, from: "bob", to: "alice", text: "older")
        let newer = Fixture.message(2, from: "bob", to: "alice", text: "newer")
        // The server's list was read when `older` was the last message; `newer` arrived by event since.
        try await session.ledger.record(newer)
        let stale = Conversation(peer: Fixture.user("bob"), lastMessage: older, unreadCount: 1)
        mock.stub(.get, "/v1/conversations", answers: [Fixture.reply(200, Page(items: [stale], nextCursor: nil))])
        let rows = try await session.conversations(refresh: true, includingFollowers: false)
        #expect(rows.map(\.lastText) == ["newer"])
    }
}
