import ChirpModels
import ChirpNetworking
import Foundation
import Testing

@testable import ChirpClient

/// The ledger applies `message.updated` / `message.deleted` idempotently, and keeps those that
/// arrive before their message.
@Suite("Local ledger: message actions")
struct MessageActionLedgerTests {
    static func updated(
        _ message: Message, text: String? = nil, reactions: [MessageReaction] = [], edited: Bool = false
    ) -> Message {
        var copy = message
        if let text { copy.text = text }
        copy.reactions = reactions
        if edited { copy.editedAt = Timestamp(millisecondsSince1970: 1_795_000_100_000) }
        return copy
    }

    @Test func updatesAndDeletionsAppliedTwiceChangeNothing() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        let ledger = session.ledger
        let message = Fixture.message(1, from: "bob", to: "alice", text: "hello")
        try await ledger.record(message)
        let update = Self.updated(
            message, text: "hello there", reactions: [MessageReaction(emoji: "👍", users: ["alice"])], edited: true)
        try await ledger.applyUpdate(update)
        let once = try #require(try await session.database.messages.fetch(id: "bob/c1"))
        #expect(once.text == "hello there" && once.editedAt != nil && once.reactions.map(\.emoji) == ["👍"])
        var changes = session.changes().makeAsyncIterator()
        try await ledger.applyUpdate(update)
        try await ledger.record(message)  // the message.created replayed: keeps the newer content
        #expect(try await session.database.messages.fetch(id: "bob/c1") == once)
        try await ledger.applyDeletion(MessageDeletedNotice(id: "1", sender: "bob", recipient: "alice"))
        let gone = try #require(try await session.database.messages.fetch(id: "bob/c1"))
        #expect(gone.deleted && gone.text.isEmpty && gone.reactions.isEmpty)
        #expect(await changes.next() == .messages(peer: "bob"))
        try await ledger.applyDeletion(MessageDeletedNotice(id: "1", sender: "bob", recipient: "alice"))
        try await ledger.applyUpdate(update)  // a late update does not bring it back
        try await ledger.merge(page: [LocalMessage(message, viewer: "alice")])
        #expect(try await session.database.messages.fetch(id: "bob/c1") == gone)
    }

    @Test func changesArrivingBeforeTheirMessageAreAppliedWhenItArrives() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        let ledger = session.ledger
        let first = Fixture.message(1, from: "bob", to: "alice", text: "one")
        let second = Fixture.message(2, from: "bob", to: "alice", text: "two")
        try await ledger.applyUpdate(Self.updated(first, reactions: [MessageReaction(emoji: "🎉", users: ["bob"])]))
        try await ledger.applyDeletion(MessageDeletedNotice(id: "2", sender: "bob", recipient: "alice"))
        #expect(try await session.database.messages.fetch(id: "bob/c2") == nil)
        try await ledger.record(first)
        try await ledger.record(second)
        let rows = try await session.messages(with: "bob", limit: 10, refresh: false).items
        #expect(rows.map(\.reactions.count) == [1, 0])
        #expect(rows.map(\.deleted) == [false, true])
        #expect(rows[1].text.isEmpty)
    }
}

extension MessageActionLedgerTests {
    @Test func aTakeDownMarksTheRowEvenAfterItsSenderUnsentIt() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        let ledger = session.ledger
        let message = Fixture.message(1, from: "bob", to: "alice", text: "awful")
        try await ledger.record(message)
        try await ledger.applyDeletion(MessageDeletedNotice(id: "1", sender: "bob", recipient: "alice"))
        let unsent = try #require(try await session.database.messages.fetch(id: "bob/c1"))
        #expect(unsent.deleted && !unsent.removedByOperators && unsent.tombstoneNote == "message unsent")
        try await ledger.applyDeletion(
            MessageDeletedNotice(id: "1", sender: "bob", recipient: "alice", removedByOperators: true))
        let removed = try #require(try await session.database.messages.fetch(id: "bob/c1"))
        #expect(removed.deleted && removed.removedByOperators && removed.tombstoneNote == "removed by the operators")
        // A page from the server says so too, and nothing takes the marker away.
        try await ledger.merge(page: [LocalMessage(message, viewer: "alice")])
        #expect(try await session.database.messages.fetch(id: "bob/c1") == removed)
        let other = Fixture.message(2, from: "bob", to: "alice", text: "worse")
        try await ledger.merge(page: [LocalMessage(other.tombstone(byOperators: true), viewer: "alice")])
        #expect(try await session.database.messages.fetch(id: "bob/c2")?.tombstoneNote == "removed by the operators")
    }
}
