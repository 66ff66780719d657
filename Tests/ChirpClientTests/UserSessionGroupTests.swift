import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Group conversations from the client kit, against a real `chirp serve`: an idempotent
/// create, a group message written offline that survives a restart and is delivered once with
/// the reaction queued behind it, and the stream's group events (messages, reads, renames,
/// removal, a group request) in the other members' stores.
@Suite("Client groups", .serialized)
struct UserSessionGroupTests {
    @Test func anOfflineGroupSendSurvivesARestartAndIsDeliveredOnceWithItsReaction() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server!.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        let carol = try homes["carol"]!.session()

        // A retried create (same client id) is the same group.
        let group = try await alice.createGroup("Team", members: ["bob", "carol"], clientGroupId: "team-1")
        #expect(try await alice.createGroup("Team", members: ["bob", "carol"], clientGroupId: "team-1").id == group.id)
        #expect(group.admins == ["alice"] && group.members.count == 3)
        let key = ConversationKey.group(group.id)
        #expect(
            try await alice.conversations(refresh: false, includingFollowers: false).map(\.shownName) == ["Team"],
            "shows before its first message")
        await #expect(throws: GroupError.self) { try await alice.createGroup(" ", members: ["bob"]) }
        await #expect(throws: GroupError.self) { try await alice.createGroup("Alone", members: []) }

        // Offline: the message and a reaction on it wait, in order, and survive a restart.
        try await server!.stop(signal: SIGTERM)
        server = nil
        let pending = try await alice.enqueue("hello team", to: key)
        #expect(pending.state == .pending && pending.group == group.id)
        try await alice.react("👍", to: pending.id, with: key)
        let restarted = try homes["alice"]!.session()
        #expect(try await restarted.pendingMessages().map(\.text) == ["hello team"])
        #expect(try await restarted.pendingActions().map(\.kind) == [.react])

        server = try await ServerProcess(dataDirectory: data, port: port)
        let report = try await restarted.synchronize().outbox
        #expect(report.sent.count == 1 && report.isDrained && report.refusedActions.isEmpty)
        #expect(try await restarted.pendingActions().isEmpty)
        _ = try await restarted.synchronize()
        #expect(try await restarted.synchronize().outbox.sent.isEmpty, "delivered once")

        // The members' streams bring the group, the message (once) and its reaction.
        for member in [bob, carol] {
            _ = try await member.synchronize()
            let rows = try await member.conversations(refresh: false, includingFollowers: false).filter(\.isGroup)
            #expect(rows.map(\.shownName) == ["Team"] && rows.first?.unreadCount == 1)
            let messages = try await member.messages(with: key, limit: 10, refresh: false).items
            #expect(messages.map(\.text) == ["hello team"] && messages.first?.sender == "alice")
            #expect(messages.first?.reactions.first?.emoji == "👍")
        }
        // Typing (live only) in the group shows who, for that group only.
        _ = try await bob.sync.apply(
            Event(seq: nil, createdAt: .now(), payload: .typing(TypingNotice(from: "carol", group: group.id))))
        #expect(bob.typingMembers(in: group.id) == ["carol"] && bob.sync.typing.typingPeers().isEmpty)
        let onServer = try await bob.api.send(ChirpEndpoints.ListMessages(with: key, limit: 10)).items
        #expect(onServer.map(\.text) == ["hello team"], "stored once")

        // Reads: bob reads it; alice's copy counts one reader, and the readers list names him.
        try await bob.markRead(key)
        #expect(
            try await bob.conversations(refresh: false, includingFollowers: false).first { $0.isGroup }?.unreadCount
                == 0)
        _ = try await restarted.synchronize()
        let sent = try await restarted.messages(with: key, limit: 10, refresh: false).items
        #expect(sent.first?.readCount == 1)
        #expect(try await restarted.readers(of: sent[0].id, inGroup: group.id).map(\.user.username) == ["bob"])

        // A rename by a non-admin is refused; by alice, every member sees it.
        await #expect(throws: NetworkError.self) { try await bob.renameGroup(group.id, to: "Mine") }
        try await restarted.renameGroup(group.id, to: "Team B")
        try await restarted.setAdmin("bob", in: group.id)
        _ = try await bob.synchronize()
        #expect(
            try await bob.conversations(refresh: false, includingFollowers: false).first { $0.isGroup }?.shownName
                == "Team B")
        #expect(try await bob.group(group.id, refresh: false)?.isAdmin("bob") == true)

        // Removed: carol keeps what she saw and can send nothing more.
        try await bob.removeMember("carol", from: group.id)
        _ = try await carol.synchronize()
        #expect(try await carol.group(group.id, refresh: false)?.left == true)
        #expect(try await carol.messages(with: key, limit: 10, refresh: false).items.map(\.text) == ["hello team"])
        await #expect(throws: GroupError.left(group.id)) { try await carol.enqueue("still here?", to: key) }
        _ = server
    }

    @Test func aGroupRequestIsAcceptedAndTheGroupPinnedAndMutedOffline() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await EndToEndTests.community(
            ["alice", "bob", "dave"], server: server!.baseURL, following: false)
        for (who, whom) in [("alice", "bob"), ("bob", "alice")] {
            #expect(try await homes[who]!.chirp("follow", whom).status == 0)
        }
        let alice = try homes["alice"]!.session()
        let dave = try homes["dave"]!.session()
        try await dave.setMessageRequests(.everyone)
        // dave's second device.
        let laptop = ClientHome(server: server!.baseURL)
        #expect(try await laptop.chirp("login", "dave", input: "password-dave\n").status == 0)
        let second = try laptop.session()
        let group = try await alice.createGroup("Strangers", members: ["bob", "dave"])
        let key = ConversationKey.group(group.id)
        _ = try await alice.send("welcome", to: key)
        _ = try await dave.synchronize()
        #expect(try await dave.requests(refresh: false).map(\.id) == [key], "group.created says it is a request")
        #expect(try await dave.requests(refresh: true).map(\.id) == [key])
        #expect(try await dave.conversations(refresh: false, includingFollowers: false).isEmpty)

        // Offline: the answer, a pin and a mute show at once and wait in the outbox.
        try await server!.stop(signal: SIGTERM)
        server = nil
        try await dave.accept(key)
        try await dave.pin(key)
        try await dave.mute(key)
        let row = try await dave.conversations(refresh: false, includingFollowers: false).first
        #expect(row?.id == key && row?.pinned == true && row?.muted == true && row?.request == false)
        #expect(try await dave.pendingActions().map(\.kind) == [.accept, .pin, .mute])

        server = try await ServerProcess(dataDirectory: data, port: port)
        let report = try await dave.synchronize().outbox
        #expect(report.isDrained && report.refusedActions.isEmpty)
        let onServer = try await dave.api.send(ChirpEndpoints.ListConversations(page: PageParameters(limit: 10))).items
        #expect(
            onServer.map { $0.group?.id } == [group.id] && onServer.allSatisfy { $0.pinned && $0.muted && !$0.request })

        // The other device learns the answer and the marks from its stream (`conversation.updated`).
        _ = try await second.synchronize()
        #expect(try await second.requests(refresh: false).isEmpty)
        let mirrored = try await second.conversations(refresh: false, includingFollowers: false).first
        #expect(
            mirrored?.id == key && mirrored?.pinned == true && mirrored?.muted == true
                && mirrored?.shownName == "Strangers")
        _ = server
    }

    /// A group with no message yet takes the server's place for it, above the conversations
    /// that were there when it was made, on the creator's device, on a member's (from the
    /// stream) and on a new device (from a refresh); a newer message moves its conversation
    /// above it.
    @Test func anEmptyGroupIsListedWhereTheServerPutsIt() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        _ = try await alice.send("before the group", to: "bob")
        _ = try await bob.synchronize()
        let group = try await alice.createGroup("Fresh", members: ["bob", "carol"])
        let key = ConversationKey.group(group.id)
        let onServer = try await alice.api.send(ChirpEndpoints.ListConversations(page: PageParameters(limit: 10))).items
        #expect(
            onServer.map { $0.group?.id ?? $0.peer.username } == [group.id, "bob"] && onServer.first?.lastMessage == nil
        )

        #expect(try await alice.conversations(refresh: false, includingFollowers: false).map(\.id) == [key, "bob"])
        _ = try await bob.synchronize()
        #expect(try await bob.conversations(refresh: false, includingFollowers: false).map(\.id) == [key, "alice"])
        let laptop = ClientHome(server: server.baseURL)
        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)
        let second = try laptop.session()
        #expect(try await second.conversations(refresh: true, includingFollowers: false).map(\.id) == [key, "bob"])

        _ = try await bob.send("after the group", to: "alice")
        _ = try await alice.synchronize()
        #expect(try await alice.conversations(refresh: false, includingFollowers: false).map(\.id) == ["bob", key])
        #expect(try await second.conversations(refresh: true, includingFollowers: false).map(\.id) == ["bob", key])
    }

    @Test func aMemberWhoDeletesTheirAccountLeavesTombstonesOnce() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let group = try await alice.createGroup("Team", members: ["bob", "carol"])
        let key = ConversationKey.group(group.id)
        _ = try await alice.send("from alice", to: key)
        _ = try await homes["carol"]!.session().send("from carol", to: key)
        _ = try await alice.synchronize()
        #expect(
            try await alice.messages(with: key, limit: 10, refresh: false).items.map(\.text) == [
                "from alice", "from carol",
            ])

        let deleted = try await homes["carol"]!.chirp("delete-account", input: "password-carol\n")
        #expect(deleted.status == 0, "\(deleted.output)")
        _ = try await alice.synchronize()
        let local = try await alice.messages(with: key, limit: 10, refresh: false).items
        #expect(local.map(\.text) == ["from alice", ""] && local[1].deleted, "a tombstone at once")
        let refreshed = try await alice.messages(with: key, limit: 10, refresh: true).items
        #expect(
            refreshed.count == 2 && refreshed[1].deleted && refreshed[1].sender.hasPrefix("deleted-"),
            "replaced, not doubled: \(refreshed.map(\.id))")
        #expect(try await alice.group(group.id, refresh: true)?.members.map(\.user.username) == ["alice", "bob"])
    }
}
