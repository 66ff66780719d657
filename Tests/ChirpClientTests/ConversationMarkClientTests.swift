@testable import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

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
        for name in ["bob", "carol", "dave"] { #expect(try await homes[name]!.chirp("send", "alice", "hi from \(name)").status == 0) }
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
        #expect(try await Self.list(first) == ["carol+pin", "bob+pin", "dave+mute"], "shown at once, most recently pinned first")
        #expect(try await first.pendingActions().map(\.kind) == [.pin, .pin, .mute], "a repeat queues nothing")
        await #expect(throws: ConversationMarkError.noSuchConversation("erin")) { try await first.pin("erin") }

        // A new process (a restart) finds the list and the queue as they were.
        let restarted = try homes["alice"]!.session()
        #expect(try await Self.list(restarted) == ["carol+pin", "bob+pin", "dave+mute"])
        server = try await ServerProcess(dataDirectory: data, port: port)
        let report = try await restarted.synchronize().outbox
        #expect(report.isDrained && report.refusedActions.isEmpty)
        #expect(try await restarted.pendingActions().isEmpty)
        #expect(try await Self.list(restarted, refresh: true) == ["carol+pin", "bob+pin", "dave+mute"], "the server agrees")

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
        #expect(try await alice.conversations(refresh: false, includingFollowers: false).contains { $0.pinned } == false)
    }
}
