import ChirpModels
import ChirpNetworking
import Foundation
import Testing

@testable import ChirpClient

/// The ledger's writes, one at a time: a read-merge-write never interleaves with another.
@Suite("Local ledger")
struct LocalLedgerTests {
    @Test func aPageMergeRacingAReadReceiptNeverWritesDeliveredOverRead() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        let ledger = session.ledger
        for round in 1...40 {
            let message = Fixture.message(round, from: "alice", to: "bob", text: "m\(round)")
            try await ledger.record(message, state: .sent)  // acknowledged; its event not seen yet
            // The page (read from the server before bob read it: `delivered`) and bob's receipt, at once.
            let page = [LocalMessage(message, viewer: "alice")]
            async let merged: Void = ledger.merge(page: page)
            async let read: Void = ledger.markRead(by: "bob", upTo: String(round))
            _ = try await (merged, read)
            let stored = try await session.database.messages.fetch(id: page[0].id)
            #expect(stored?.state == .read, "round \(round)")
        }
    }

    @Test func everyWriteIsPublishedAsAChange() async throws {
        let session = try Fixture.session(MockTransport(), clock: TestClock())
        var changes = session.changes().makeAsyncIterator()
        try await session.ledger.record(Fixture.message(1, from: "bob", to: "alice", text: "hi"))
        #expect(await changes.next() == .messages(peer: "bob"))
        #expect(await changes.next() == .conversations)
        try await session.ledger.addFollower(Fixture.user("carol"), seq: 2)
        #expect(await changes.next() == .follows(owner: "alice", relation: "followers"))
        try await session.ledger.add(timeline: [
            TimelineEntry(
                Tweet(
                    id: "5", clientTweetId: "t", author: Fixture.user("bob"), text: "tweet",
                    createdAt: Timestamp(millisecondsSince1970: 0)))
        ])
        #expect(await changes.next() == .timeline)
    }
}
