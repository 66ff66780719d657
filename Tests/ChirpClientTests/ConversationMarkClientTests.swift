import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Pinned and muted conversations from the client kit, against a real `chirp serve`: shown at
/// once while offline, kept across a restart, sent when the server is back, and brought to the
/// user's other device by `conversation.updated`.
@Suite("Client pinned and muted conversations", .serialized)
struct ConversationMarkClientTests {
    /// The list as `name[pinned,muted]`, in the order it shows.
    static func list(_ session: UserSession, refresh: Bool = false) async throws -> [String] {
        try await session.conversations(refresh: refresh, includingFollowers: false).map { row in
            row.peerName + (row.pinned ? "+pin" : "") + (row.muted ? "+mute" : "")
        }
    }

    @Test func marksShowAtOnceOfflineSurviveARestartAndReachTheOtherDevice() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await EndToEndTests.community(["alice", "bob", "carol", "dave"], server: server!.baseURL)
        for name in ["bob", "carol", "dave"] {
            #expect(try await homes[name]!.chirp("send", "alice", "hi from \(name)").status == 0)
        }
        // alice's second device.
        let laptop = ClientHome(server: server!.baseURL)
        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)
        let second = try laptop.session()
        _ = try await second.synchronize()
        let first = try homes["alice"]!.session()
        #expect(try await Self.list(first, refresh: true) == ["dave", "carol", "bob"])

        try await server!.stop(signal: SIGTERM)
        server = nil
        try await first.pin("bob")
        try await first.pin("carol")
        try await first.mute("dave")
        try await first.pin("carol")
        #expect(
            try await Self.list(first) == ["carol+pin", "bob+pin", "dave+mute"],
            "shown at once, most recently pinned first")
        #expect(try await first.pendingActions().map(\.kind) == [.pin, .pin, .mute], "a repeat queues nothing")
        await #expect(throws: ConversationMarkError.noSuchConversation("erin")) { try await first.pin("erin") }

        // A new process (a restart) finds the list and the queue as they were.
        let restarted = try homes["alice"]!.session()
        #expect(try await Self.list(restarted) == ["carol+pin", "bob+pin", "dave+mute"])
        server = try await ServerProcess(dataDirectory: data, port: port)
        let report = try await restarted.synchronize().outbox
        #expect(report.isDrained && report.refusedActions.isEmpty)
        #expect(try await restarted.pendingActions().isEmpty)
        #expect(
            try await Self.list(restarted, refresh: true) == ["carol+pin", "bob+pin", "dave+mute"], "the server agrees")

        // The other device learns it from its event stream, and its own change comes back.
        _ = try await second.synchronize()
        #expect(try await Self.list(second) == ["carol+pin", "bob+pin", "dave+mute"])
        try await second.unpin("carol")
        try await second.unmute("dave")
        _ = try await second.drainOutbox()
        _ = try await restarted.synchronize()
        #expect(try await Self.list(restarted) == ["bob+pin", "dave", "carol"])
        _ = server
    }

    @Test func aRefusedPinIsDroppedAndTheListComesBackAsTheServerHasIt() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        #expect(try await homes["bob"]!.chirp("send", "alice", "hello").status == 0)
        let alice = try homes["alice"]!.session()
        _ = try await alice.conversations(refresh: true)
        // bob deletes his account: the server knows the conversation only as deleted-ID now.
        #expect(try await homes["bob"]!.chirp("delete-account", input: "password-bob\n").status == 0)
        try await alice.pin("bob")
        _ = try await alice.drainOutbox()
        let refused = alice.takeRefusedActions()
        #expect(refused.count == 1 && refused.first?.contains("bob") == true, "\(refused)")
        #expect(try await alice.pendingActions().isEmpty)
        #expect(
            try await alice.conversations(refresh: false, includingFollowers: false).contains { $0.pinned } == false)
    }

    @Test func theCommandsPinUnpinMuteAndUnmute() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let alice = homes["alice"]!
        #expect(try await homes["bob"]!.chirp("send", "alice", "from bob").status == 0)
        #expect(try await homes["carol"]!.chirp("send", "alice", "from carol").status == 0)

        // A fresh home has no list yet: the command refreshes it once.
        let pinned = try await alice.chirp("pin", "bob")
        #expect(pinned.status == 0 && pinned.output.contains("pinned bob"), "\(pinned.output)")
        let muted = try await alice.chirp("mute", "carol")
        #expect(muted.status == 0 && muted.output.contains("muted carol"), "\(muted.output)")
        let list = try await alice.chirp("conversations")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("📌 bob") && lines[1].hasPrefix("🔕 carol"), "\(list.output)")

        let nobody = try await alice.chirp("pin", "dave")
        #expect(nobody.status != 0 && nobody.output.contains("no conversation with dave"), "\(nobody.output)")
        #expect(try await alice.chirp("unpin", "bob").output.contains("unpinned bob"))
        #expect(try await alice.chirp("unmute", "carol").output.contains("unmuted carol"))
        let after = try await alice.chirp("conversations").output
        #expect(!after.contains("📌") && !after.contains("🔕") && after.hasPrefix("carol"), "\(after)")
        let onServer = try await alice.session().api.send(
            ChirpEndpoints.ListConversations(page: PageParameters(limit: 10))
        ).items
        #expect(onServer.map { [$0.pinned, $0.muted] } == [[false, false], [false, false]])
    }
}
