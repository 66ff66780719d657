import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Reactions, replies, edits, unsends and search from the client kit and the CLI, against a
/// real `chirp serve`.
@Suite("Client message actions", .serialized)
struct MessageActionClientTests {
    /// What a conversation looks like, for comparing two devices.
    static func snapshot(_ session: UserSession, with peer: String) async throws -> [String] {
        try await session.messages(with: peer, limit: 100, refresh: false).items.map { message in
            "\(message.serverId ?? "-") \(message.text) edited=\(message.editedAt != nil) deleted=\(message.deleted) replyTo=\(message.replyTo ?? "-") "
                + message.reactions.map { "\($0.emoji)\($0.users)" }.joined(separator: ",")
        }
    }

    @Test func aReconnectingDeviceEndsLikeOneThatStayedOnline() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        // bob's second device, which syncs only at the end.
        let laptop = ClientHome(server: server.baseURL)
        #expect(try await laptop.chirp("login", "bob", input: "password-bob\n").status == 0)
        let away = try laptop.session()
        _ = try await away.synchronize()

        let first = try await alice.send("lunch at noon?", to: "bob").message
        let second = try await alice.send("or maybe at one", to: "bob").message
        let third = try await alice.send("wrong chat, sorry", to: "bob").message
        _ = try await bob.synchronize()
        let reply = try await bob.send(
            "noon works", to: "alice",
            replyTo: try #require(try await bob.localMessageId(first.serverId!, with: "alice"))
        ).message
        #expect(reply.replyTo == first.serverId)
        try await bob.react(
            "👍", to: try #require(try await bob.localMessageId(first.serverId!, with: "alice")), with: "alice")
        try await bob.react(
            "🎉", to: try #require(try await bob.localMessageId(first.serverId!, with: "alice")), with: "alice")
        try await alice.react("👍", to: first.id, with: "bob")
        try await bob.react(
            "🎉", to: try #require(try await bob.localMessageId(first.serverId!, with: "alice")), with: "alice",
            remove: true)
        try await alice.edit(second.id, with: "bob", text: "or maybe at two")
        try await alice.unsend(third.id, with: "bob")
        _ = try await alice.drainOutbox()
        _ = try await bob.drainOutbox()
        _ = try await bob.synchronize()
        _ = try await away.synchronize()

        let online = try await Self.snapshot(bob, with: "alice")
        #expect(try await Self.snapshot(away, with: "alice") == online)
        #expect(online.contains { $0.contains("or maybe at two edited=true") }, "\(online)")
        #expect(online.contains { $0.contains("deleted=true") && !$0.contains("wrong chat") }, "\(online)")
        #expect(
            online.contains {
                $0.contains("lunch at noon?") && $0.contains("👍[\"bob\", \"alice\"]") && !$0.contains("🎉")
            }, "\(online)")
        #expect(online.contains { $0.contains("noon works") && $0.contains("replyTo=\(first.serverId!)") }, "\(online)")
        // The sender's own device agrees.
        _ = try await alice.synchronize()
        #expect(try await Self.snapshot(alice, with: "bob") == online)
        // Search goes to the server.
        #expect(try await bob.searchMessages("MAYBE two").items.map(\.text) == ["or maybe at two"])
        #expect(try await bob.searchMessages("wrong").items.isEmpty)
    }

    @Test func actionsOnAPendingMessageWaitBehindItAcrossARestart() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server!.baseURL)
        try await server!.stop(signal: SIGTERM)
        server = nil

        do {
            let alice = try homes["alice"]!.session()
            let pending = try await alice.enqueue("see you soon", to: "bob")
            let answer = try await alice.enqueue("(at the station)", to: "bob", replyTo: pending.id)
            try await alice.react("❤️", to: pending.id, with: "bob")
            try await alice.edit(pending.id, with: "bob", text: "see you very soon")
            let local = try await alice.messages(with: "bob", limit: 10, refresh: false).items
            // The reaction shows at once; the edit of a pending message once the server has it.
            #expect(local.map(\.text) == ["see you soon", "(at the station)"])
            #expect(local.first?.reactions.first?.users == ["alice"])
            #expect(answer.replyTo == pending.id)
            #expect(try await alice.pendingActions().map(\.kind) == [.react, .edit])
        }
        // A new process (a restart) finds the queue as it was.
        server = try await ServerProcess(dataDirectory: data, port: port)
        let restarted = try homes["alice"]!.session()
        #expect(try await restarted.pendingActions().count == 2)
        let report = try await restarted.synchronize().outbox
        #expect(report.isDrained && report.refusedActions.isEmpty)
        #expect(try await restarted.pendingActions().isEmpty)
        let onServer = try await restarted.api.send(ChirpEndpoints.ListMessages(with: "bob", limit: 10)).items
        #expect(onServer.map(\.text) == ["see you very soon", "(at the station)"])
        #expect(
            onServer.first?.editedAt != nil
                && onServer.first?.reactions == [MessageReaction(emoji: "❤️", users: ["alice"])])
        #expect(onServer.last?.replyTo == onServer.first?.id)
        _ = server
    }

    @Test func theCommandsReactReplyEditUnsendAndSearch() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)
        #expect(try await alice.chirp("send", "bob", "Café at noon?").status == 0)
        let id = try #require(
            try await bob.session().api.send(ChirpEndpoints.ListMessages(with: "alice", limit: 10)).items.first?.id)

        let react = try await bob.chirp("react", "alice/\(id)", "👍")
        #expect(react.status == 0 && react.output.contains("reacted 👍"), "\(react.output)")
        let reply = try await bob.chirp("send", "alice", "--reply-to", id, "yes,", "noon")
        #expect(reply.status == 0, "\(reply.output)")
        let edit = try await alice.chirp("edit", "bob/#\(id)", "Café at one?")
        #expect(edit.status == 0 && edit.output.contains("edited"), "\(edit.output)")
        let notMine = try await bob.chirp("edit", "alice/\(id)", "hijack")
        #expect(notMine.status != 0 && notMine.output.contains("Only the sender"), "\(notMine.output)")
        let history = try await bob.chirp("messages", "alice")
        #expect(
            history.output.contains("alice: Café at one? (edited)") && history.output.contains("#\(id)  👍 1"),
            "\(history.output)")
        #expect(history.output.contains("bob: ↪ #\(id) yes, noon"), "\(history.output)")

        let search = try await bob.chirp("search", "cafe", "ONE")
        #expect(search.status == 0 && search.output.contains("alice → bob: Café at one?"), "\(search.output)")
        #expect(try await bob.chirp("search", "noon", "--with", "alice").output.contains("yes, noon"))
        #expect(try await bob.chirp("search", "nothing-here").output.contains("no messages match"))

        let unsend = try await alice.chirp("unsend", "bob/\(id)")
        #expect(unsend.status == 0 && unsend.output.contains("unsent"), "\(unsend.output)")
        #expect(try await bob.chirp("messages", "alice").output.contains("alice: (message unsent)"))
        let missing = try await bob.chirp("react", "alice/999999", "👍")
        #expect(missing.status != 0 && missing.output.contains("chirp messages alice"), "\(missing.output)")
        let badEmoji = try await bob.chirp("react", "alice/\(id)", "ok")
        #expect(badEmoji.status != 0, "\(badEmoji.output)")
    }
}
