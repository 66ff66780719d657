import ChirpClient
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

/// The kit against a real server: history read after time away has no hole, a gap in the
/// middle is read as the reader scrolls into it, and unread counts stay the server's whatever
/// order list refreshes, pages and events come in.
@Suite("History after time away", .serialized)
struct HistoryAfterTimeAwayTests {
    /// A server, alice (who writes, over the bare API) and bob (who reads, with a client
    /// directory of his own), following each other.
    struct Pair {
        let server: ServerProcess
        let alice: ChirpAPIClient
        let bob: AccountManager
        let bobSession: UserSession

        init() async throws {
            server = try await ServerProcess(arguments: ["--no-rate-limits"])
            alice = ChirpAPIClient(baseURL: server.baseURL)
            try await alice.register("alice", password: "alice-password")
            bob = AccountManager(
                context: try AppContext(root: ServerProcess.temporaryDirectory()),
                server: Server(baseURL: server.baseURL))
            bobSession = try await bob.register("bob", password: "bob-password")
            _ = try await alice.send(ChirpEndpoints.Follow("bob"))
            try await bobSession.follow("alice")
        }

        /// alice sends bob `n<number>` for each number, fifty at a time.
        func aliceSends(_ numbers: ClosedRange<Int>) async throws {
            let alice = alice
            try await Seeding.concurrently(numbers) { number in
                _ = try await alice.send(
                    ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "n\(number)", text: "n\(number)"))
            }
        }

        /// The server's unread count of bob's conversation with alice.
        func serverUnread() async throws -> Int? {
            try await bobSession.api.send(ChirpEndpoints.ListConversations()).items.first?.unreadCount
        }

        /// bob's count, as his conversation list shows it (from the local database).
        func localUnread(_ session: UserSession) async throws -> Int? {
            try await session.conversations(refresh: false, includingFollowers: false).first?.unreadCount
        }
    }

    /// Reads back the way a reader scrolling up does, 100 more at a time, until nothing is
    /// older; returns the numbers shown, in the order shown.
    static func scrollBack(_ session: UserSession, from limit: Int) async throws -> [Int] {
        var limit = limit
        var page = try await session.messages(with: "alice", limit: limit, refresh: true)
        while page.hasOlder {
            limit += 100
            page = try await session.messages(with: "alice", limit: limit, refresh: true)
        }
        return page.items.map { Int($0.text.dropFirst()) ?? -1 }
    }

    /// 600 while away: six of the server's pages of 100 (`UserSession.historyPageSize`) above the
    /// five stored, so the read back crosses pages and the gap as 2,000 did, at a third of the cost.
    @Test func earlyHistoryThen600WhileAwayReadsBackWithNoNumberMissing() async throws {
        let pair = try await Pair()
        try await pair.aliceSends(1...5)
        let early = try await pair.bobSession.messages(with: "alice", limit: 30, refresh: true)
        #expect(Set(early.items.map(\.text)) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(!early.hasOlder)

        try await pair.aliceSends(6...605)
        let reopened = try pair.bob.currentSession()
        let newest = try await reopened.messages(with: "alice", limit: 30, refresh: true)
        #expect(newest.items.count == 30 && newest.hasOlder)
        // The newest page did not meet the five stored: a gap, not a join.
        #expect(try await reopened.history(with: "alice").stretches.count == 2)

        let shown = try await Self.scrollBack(reopened, from: 30)
        #expect(shown.count == 605)
        #expect(shown.sorted() == Array(1...605))
        #expect(try await reopened.history(with: "alice").stretches.count == 1)
        #expect(try await reopened.history(with: "alice").newest?.reachesFirst == true)
    }

    @Test func aGapInTheMiddleIsReadWhenReachedAndUnreadCountsStayTheServers() async throws {
        let pair = try await Pair()
        let bob = pair.bobSession
        // Online: the first 20 come on the event stream.
        try await pair.aliceSends(1...20)
        try await bob.sync.catchUp()
        #expect(try await pair.localUnread(bob) == 20)
        #expect(try await pair.serverUnread() == 20)

        // Offline while 500 more arrive; back online, the list and the newest page come first.
        try await pair.aliceSends(21...520)
        _ = try await bob.conversations(refresh: true, includingFollowers: false)
        #expect(try await pair.localUnread(bob) == 520)
        let newest = try await bob.messages(with: "alice", limit: 30, refresh: true)
        #expect(newest.items.count == 30 && newest.hasOlder)
        #expect(try await bob.history(with: "alice").stretches.count == 2)
        // Then the stream catches up: the 500 events count nothing the list already counted.
        try await bob.sync.catchUp()
        #expect(try await pair.localUnread(bob) == 520)
        #expect(try await pair.serverUnread() == 520)
        let shown = try await Self.scrollBack(bob, from: 30)
        #expect(shown.sorted() == Array(1...520))
        #expect(shown.count == 520)

        // Read, then more while away, in the other order: events first, then the list.
        try await bob.markRead("alice")
        #expect(try await pair.localUnread(bob) == 0)
        #expect(try await pair.serverUnread() == 0)
        try await pair.aliceSends(521...525)
        try await bob.sync.catchUp()
        #expect(try await pair.localUnread(bob) == 5)
        _ = try await bob.conversations(refresh: true, includingFollowers: false)
        try await bob.sync.catchUp()
        #expect(try await pair.localUnread(bob) == 5)
        #expect(try await pair.serverUnread() == 5)

        // A reopened session (a reconnect) that reads the list and the page again agrees too.
        let reopened = try pair.bob.currentSession()
        try await pair.aliceSends(526...530)
        _ = try await reopened.messages(with: "alice", limit: 30, refresh: true)
        _ = try await reopened.conversations(refresh: true, includingFollowers: false)
        try await reopened.sync.catchUp()
        #expect(try await pair.localUnread(reopened) == 10)
        #expect(try await pair.serverUnread() == 10)
    }
}
