import ChirpModels
import Foundation
import Synchronization
import Testing

@testable import ChirpServer

/// Blocks and reports over real sockets, on SQLite (and on PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`, as CI runs the suite).
@Suite("Safety: block and report")
struct SafetyTests {
    /// alice and bob follow each other and have written to each other.
    static func friends(_ api: APIHarness) async throws -> (alice: Session, bob: Session) {
        let alice = try await api.register("alice")
        let bob = try await api.register("bob")
        try await api.follow(alice, "bob")
        try await api.follow(bob, "alice")
        #expect(try await api.sendMessage(alice, to: "bob", "hi bob").status == 201)
        #expect(try await api.sendMessage(bob, to: "alice", "hi alice").status == 201)
        return (alice, bob)
    }

    static func conversationPeers(_ api: APIHarness, _ viewer: Session) async throws -> [String] {
        let page: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: viewer.token).decode()
        return page.items.map(\.peer.username)
    }

    static func user(_ api: APIHarness, _ viewer: Session, _ name: String) async throws -> User {
        try await api.send(.GET, "/v1/users/\(name)", token: viewer.token).decode()
    }

    /// Deleting an account takes its blocks with it, both ways: the blocker's list no longer
    /// names it, and someone registering the freed name starts unblocked.
    @Test func aDeletedAccountTakesItsBlocksWithIt() async throws {
        try await TestServer.run { api in
            let (alice, bob) = try await Self.friends(api)
            let carol = try await api.register("carol")
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/users/carol/block", token: bob.token).status == 204)
            #expect(
                try await api.send(
                    .DELETE, "/v1/me", token: bob.token, json: DeleteAccountRequest(password: "correct horse")
                ).status == 204)

            let blocks: Page<User> = try await api.send(.GET, "/v1/me/blocks", token: alice.token).decode()
            #expect(blocks.items.isEmpty)
            let newBob = try await api.register("bob")
            try await api.follow(alice, "bob")
            #expect(try await api.sendMessage(newBob, to: "alice", "hello, I am new").status == 201)
            #expect(try await api.send(.PUT, "/v1/users/bob/follow", token: carol.token).status == 204)
        }
    }

    @Test func aBlockEndsFollowsBothWaysAndStopsMessagesUntilUnblocked() async throws {
        try await TestServer.run { api in
            let (alice, bob) = try await Self.friends(api)
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/users/BOB/block", token: alice.token).status == 204, "idempotent")

            let bobSeen = try await Self.user(api, alice, "bob")
            #expect(bobSeen.followersCount == 0 && bobSeen.followingCount == 0)
            #expect(bobSeen.followsYou == false && bobSeen.followedByYou == false)
            let aliceSeen = try await Self.user(api, alice, "alice")
            #expect(aliceSeen.followersCount == 0 && aliceSeen.followingCount == 0)

            let refollow = try await api.send(.PUT, "/v1/users/alice/follow", token: bob.token)
            #expect(refollow.status == 403 && refollow.errorCode == "blocked")
            let followBlocked = try await api.send(.PUT, "/v1/users/bob/follow", token: alice.token)
            #expect(followBlocked.status == 403 && followBlocked.errorCode == "blocked")

            // bob still has alice's earlier message (a permission without the block): the
            // block alone refuses him, with the answer of a missing permission.
            let fromBob = try await api.sendMessage(bob, to: "alice", "are you there?")
            #expect(fromBob.status == 403 && fromBob.errorCode == "dm_not_allowed")
            let toBob = try await api.sendMessage(alice, to: "bob", "one more thing")
            #expect(toBob.status == 403 && toBob.errorCode == "blocked")

            #expect(try await Self.conversationPeers(api, alice) == [])
            #expect(try await Self.conversationPeers(api, bob) == ["alice"], "the blocked user's list is unchanged")
            #expect(try await api.messages(alice, with: "bob").items.count == 2, "nothing stored is deleted")

            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: alice.token).status == 204, "idempotent")
            #expect(try await Self.conversationPeers(api, alice) == ["bob"], "unblocking restores the list")
            #expect(try await api.sendMessage(bob, to: "alice", "back again").status == 201)
            #expect(try await api.sendMessage(alice, to: "bob", "welcome back").status == 201)
            #expect(try await api.send(.PUT, "/v1/users/alice/follow", token: bob.token).status == 204)
        }
    }

    @Test func blockEventsGoToTheBlockerOnly() async throws {
        try await TestServer.run { api in
            let (alice, bob) = try await Self.friends(api)
            let bobBefore = try await api.allEvents(bob).count
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: alice.token).status == 204)
            let safety = try await api.allEvents(alice).filter { $0.type.hasPrefix("block.") }
            #expect(
                safety.map(\.payload) == [
                    .blockCreated(BlockNotice(username: "bob")), .blockDeleted(BlockNotice(username: "bob")),
                ], "one event per change, none for a repeat")
            let bobAfter = try await api.allEvents(bob)
            #expect(bobAfter.count == bobBefore && !bobAfter.contains { $0.type.hasPrefix("block.") })
        }
    }

    @Test func blockingYourselfOrNobody() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let me = try await api.send(.PUT, "/v1/users/Alice/block", token: alice.token)
            #expect(me.status == 422 && me.errorCode == "cannot_block_self")
            let ghost = try await api.send(.PUT, "/v1/users/ghost/block", token: alice.token)
            #expect(ghost.status == 404 && ghost.errorCode == "user_not_found")
            #expect(try await api.send(.DELETE, "/v1/users/ghost/block", token: alice.token).status == 404)
            #expect(try await api.send(.PUT, "/v1/users/bob/block").status == 401)
        }
    }

    @Test func theBlockedUsersTweetsLeaveTheTimelineAndComeBack() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(alice, "bob")
            #expect(
                try await api.send(.PUT, "/v1/tweets/t1", token: bob.token, json: TextBody(text: "bob's tweet")).status
                    == 201)
            #expect(
                try await api.send(.PUT, "/v1/tweets/t2", token: alice.token, json: TextBody(text: "alice's tweet"))
                    .status == 201)
            func timeline() async throws -> [String] {
                let page: Page<Tweet> = try await api.send(.GET, "/v1/timeline", token: alice.token).decode()
                return page.items.map(\.text)
            }
            #expect(try await timeline() == ["alice's tweet", "bob's tweet"])
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(try await timeline() == ["alice's tweet"])
            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: alice.token).status == 204)
            try await api.follow(alice, "bob")
            #expect(try await timeline() == ["alice's tweet", "bob's tweet"], "nothing was deleted")
        }
    }

    @Test func theBlockedUsersTypingNeverReachesTheBlocker() async throws {
        try await TestServer.run { api in
            let (alice, bob) = try await Self.friends(api)
            #expect(try await api.send(.POST, "/v1/conversations/alice/typing", token: bob.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            let head = try await api.events(alice).lastSeq
            let listening = Task { try await api.events(alice, since: head, wait: 2) }
            let answered = Mutex(false)
            let typing = Task {
                while !answered.withLock({ $0 }) {
                    let reply = try await api.send(.POST, "/v1/conversations/alice/typing", token: bob.token)
                    #expect(reply.status == 403 && reply.errorCode == "dm_not_allowed")
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            let result = try await listening.value
            answered.withLock { $0 = true }
            try await typing.value
            #expect(result.events.isEmpty, "no typing reached alice: \(result.events.map(\.type))")
            // alice typing to bob, whom she blocked, is refused the same way as her messages.
            #expect(
                try await api.send(.POST, "/v1/conversations/bob/typing", token: alice.token).errorCode == "blocked")
        }
    }

    @Test func blocksAreListedNewestFirstInPages() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            var names: [String] = []
            for index in 0..<7 {
                let name = "pest\(index)"
                _ = try await api.register(name)
                #expect(try await api.send(.PUT, "/v1/users/\(name)/block", token: alice.token).status == 204)
                names.append(name)
            }
            #expect(try await api.send(.DELETE, "/v1/users/pest3/block", token: alice.token).status == 204)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page: Page<User> = try await api.send(.GET, "/v1/me/blocks\(query)", token: alice.token).decode()
                #expect(page.items.count <= 3)
                seen += page.items.map(\.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == names.filter { $0 != "pest3" }.reversed())
            #expect(try await api.send(.GET, "/v1/me/blocks?limit=0", token: alice.token).status == 400)
        }
    }

    @Test func aReportKeepsTheMessageAsSentAndOperatorsReadIt() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await Self.friends(api)
            let sent: Message = try await api.sendMessage(bob, to: "alice", "you will regret this").decode()
            let before = Timestamp.now()
            let reply = try await api.send(
                .POST, "/v1/reports", token: alice.token,
                json: ReportRequest(username: "bob", messageId: sent.id, reason: "abuse", note: "threat\nsecond line"))
            #expect(reply.status == 202, "\(reply.text)")
            let receipt: ReportReceipt = try reply.decode()
            #expect(Int(receipt.id) != nil)
            let plain = try await api.send(
                .POST, "/v1/reports", token: bob.token, json: ReportRequest(username: "alice", reason: "spam"))
            #expect(plain.status == 202)

            let reports = try await ServerAdministration.reports(
                configuration: configuration, since: Timestamp(millisecondsSince1970: 0))
            #expect(reports.count == 2)
            let first = try #require(reports.first)
            #expect(String(first.id) == receipt.id)
            #expect(first.reporter == "alice" && first.reported == "bob" && first.reason == "abuse")
            #expect(
                first.messageText == "you will regret this" && first.messageSender == "bob"
                    && first.messageMediaIds == [])
            #expect(first.note == "threat\nsecond line")
            let line = ServerAdministration.line(for: first)
            #expect(line.contains("alice reported bob for abuse") && line.contains("text=\"you will regret this\""))
            #expect(!line.contains("\n"), "one line per report")
            let later = try await ServerAdministration.reports(
                configuration: configuration,
                since: Timestamp(millisecondsSince1970: before.millisecondsSince1970 + 60_000))
            #expect(later.isEmpty, "--since leaves older reports out")
        }
    }

    @Test func aReportNeedsAMessageTheReporterCanReadAndAValidReasonAndNote() async throws {
        try await TestServer.run { api in
            let (alice, bob) = try await Self.friends(api)
            let carol = try await api.register("carol")
            let dave = try await api.register("dave")
            try await api.follow(dave, "carol")
            let private_: Message = try await api.sendMessage(carol, to: "dave", "between us").decode()
            let ownWithBob: Message = try await api.messages(alice, with: "bob").items[0]
            func report(_ body: ReportRequest, as who: Session = alice) async throws -> Reply {
                try await api.send(.POST, "/v1/reports", token: who.token, json: body)
            }
            let unreadable = try await report(ReportRequest(username: "carol", messageId: private_.id, reason: "spam"))
            #expect(unreadable.status == 404 && unreadable.errorCode == "message_not_found")
            let otherConversation = try await report(
                ReportRequest(username: "carol", messageId: ownWithBob.id, reason: "spam"))
            #expect(otherConversation.status == 404, "a message of another conversation")
            #expect(try await report(ReportRequest(username: "bob", messageId: "nope", reason: "spam")).status == 404)
            #expect(try await report(ReportRequest(username: "bob", messageId: "99999", reason: "spam")).status == 404)
            #expect(try await report(ReportRequest(username: "ghost", reason: "spam")).errorCode == "user_not_found")
            let reason = try await report(ReportRequest(username: "bob", reason: "rude"))
            #expect(reason.status == 422 && reason.errorCode == "invalid_reason")
            let long = try await report(
                ReportRequest(username: "bob", reason: "other", note: String(repeating: "é", count: 1001)))
            #expect(long.status == 422 && long.errorCode == "invalid_note")
            #expect(
                try await report(
                    ReportRequest(username: "bob", reason: "other", note: String(repeating: "é", count: 1000))
                ).status == 202)
            #expect(
                try await report(ReportRequest(username: "alice", messageId: ownWithBob.id, reason: "spam"), as: bob)
                    .status == 202,
                "either person of the conversation may report its messages")
            let malformed = try await api.send(.POST, "/v1/reports", token: alice.token, raw: #"{"username": "bob"}"#)
            #expect(malformed.status == 400)
        }
    }
}
