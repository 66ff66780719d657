import ChirpModels
import ChirpNetworking
import Foundation
import Testing

@testable import ChirpClient

/// `events.pruned` (the server's event retention deleted events the client had not read): the
/// session reads the lists those events would have changed again, and keeps its cursor.
@Suite("Events pruned")
struct EventsPrunedTests {
    @Test func theSessionReadsItsListsAgain() async throws {
        let mock = MockTransport()
        let session = try Fixture.session(mock, clock: TestClock())
        let missed = Fixture.message(40, from: "bob", to: "alice", text: "while you were away")
        let bob = Conversation(peer: Fixture.user("bob"), lastMessage: missed, unreadCount: 1)
        mock.stub(.get, "/v1/conversations", answers: [Fixture.reply(200, Page(items: [bob], nextCursor: nil))])
        mock.stub(.get, "/v1/timeline", answers: [Fixture.reply(200, Page<Tweet>(items: [], nextCursor: nil))])
        #expect(try await session.conversations(refresh: false, includingFollowers: false).isEmpty)

        let notice = Fixture.event(nil, .eventsPruned(EventsPrunedNotice(oldestSeq: "41")))
        #expect(try await session.sync.apply(notice))
        let rows = try await session.conversations(refresh: false, includingFollowers: false)
        #expect(rows.map(\.peerName) == ["bob"] && rows.first?.unreadCount == 1, "the list read again: \(rows)")
        #expect(
            mock.requests.contains {
                $0.url.path == "/v1/conversations" && $0.url.query?.contains("requests=true") == true
            },
            "requests too: \(mock.requests.map(\.url))")
        #expect(try await session.sync.lastSeq() == 0, "a live notice moves no cursor")
    }
}
