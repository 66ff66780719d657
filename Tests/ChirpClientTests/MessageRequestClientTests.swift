import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Message requests from the client kit, against a real `chirp serve`: the setting, requests
/// found by the event stream and listed apart, answers shown at once while offline, kept across
/// a restart, sent when the server is back, and brought to the user's other device.
@Suite("Client message requests", .serialized)
struct MessageRequestClientTests {
    /// Homes for `names`, registered, following nobody.
    static func strangers(_ names: [String], server: URL) async throws -> [String: ClientHome] {
        try await EndToEndTests.community(names, server: server, following: false)
    }

    static func names(_ rows: [ConversationSummary]) -> [String] { rows.map(\.peerName) }

    @Test func answersShowAtOnceOfflineSurviveARestartAndReachTheOtherDevice() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server: ServerProcess? = try await ServerProcess(dataDirectory: data)
        let port = server!.port
        let homes = try await Self.strangers(["alice", "bob", "carol"], server: server!.baseURL)
        let first = try homes["alice"]!.session()
        #expect(try await first.settings() == UserSettings(messageRequests: .followers))
        #expect(try await first.setMessageRequests(.everyone).messageRequests == .everyone)
        #expect(try await first.settings().messageRequests == .everyone)
        // alice's second device.
        let laptop = ClientHome(server: server!.baseURL)
        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)
        let second = try laptop.session()

        for name in ["bob", "carol"] {
            #expect(try await homes[name]!.chirp("send", "alice", "hi from \(name)").status == 0)
        }
        // bob follows alice: his request is not also a follower to write to.
        #expect(try await homes["bob"]!.chirp("follow", "alice").status == 0)
        for session in [first, second] {
            _ = try await session.synchronize()
            #expect(
                Self.names(try await session.requests(refresh: false)) == ["carol", "bob"],
                "the stream's first messages are requests")
            #expect(try await session.conversations(refresh: false, includingFollowers: false).isEmpty)
        }
        #expect(try await first.conversations(refresh: true, includingFollowers: true).isEmpty)

        try await server!.stop(signal: SIGTERM)
        server = nil
        try await first.accept("bob")
        try await first.decline("carol")
        #expect(try await first.requests(refresh: false).isEmpty, "shown at once")
        #expect(Self.names(try await first.conversations(refresh: false, includingFollowers: false)) == ["bob"])
        #expect(try await first.pendingActions().map(\.kind) == [.accept, .decline])
        await #expect(throws: MessageRequestError.noSuchRequest("dave")) { try await first.accept("dave") }
        await #expect(throws: MessageRequestError.noSuchRequest("bob")) { try await first.decline("bob") }

        // A new process (a restart) finds the lists and the queue as they were.
        let restarted = try homes["alice"]!.session()
        #expect(Self.names(try await restarted.conversations(refresh: false, includingFollowers: false)) == ["bob"])
        server = try await ServerProcess(dataDirectory: data, port: port)
        let report = try await restarted.synchronize().outbox
        #expect(report.isDrained && report.refusedActions.isEmpty)
        #expect(try await restarted.pendingActions().isEmpty)
        #expect(try await restarted.requests(refresh: true).isEmpty, "the server agrees")
        let onServer = try await restarted.api.send(ChirpEndpoints.ListConversations(page: PageParameters(limit: 10)))
            .items
        #expect(onServer.map(\.peer.username) == ["bob"] && onServer.allSatisfy { !$0.request })

        // The other device learns both answers from its event stream.
        _ = try await second.synchronize()
        #expect(try await second.requests(refresh: false).isEmpty)
        #expect(Self.names(try await second.conversations(refresh: false, includingFollowers: false)) == ["bob"])

        // A later message from carol is a new request.
        #expect(try await homes["carol"]!.chirp("send", "alice", "please?").status == 0)
        _ = try await restarted.synchronize()
        #expect(Self.names(try await restarted.requests(refresh: false)) == ["carol"])
        _ = server
    }

    @Test func replyingToARequestAcceptsIt() async throws {
        let server = try await ServerProcess()
        let homes = try await Self.strangers(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        try await alice.setMessageRequests(.everyone)
        #expect(try await homes["bob"]!.chirp("send", "alice", "hello").status == 0)
        #expect(Self.names(try await alice.requests(refresh: true)) == ["bob"])
        let (reply, _) = try await alice.send("hi bob", to: "bob")
        #expect(reply.serverId != nil)
        #expect(try await alice.requests(refresh: false).isEmpty)
        #expect(try await alice.requests(refresh: true).isEmpty, "the server agrees")
        #expect(Self.names(try await alice.conversations(refresh: true, includingFollowers: false)) == ["bob"])
    }

    @Test func theCommandsSettingsRequestsAcceptAndDecline() async throws {
        let server = try await ServerProcess()
        let homes = try await Self.strangers(["alice", "bob", "carol"], server: server.baseURL)
        let alice = homes["alice"]!
        let shown = try await alice.chirp("settings")
        #expect(shown.status == 0 && shown.output.contains("message requests: followers"), "\(shown.output)")
        let bad = try await alice.chirp("settings", "--message-requests", "nobody")
        #expect(bad.status != 0 && bad.output.contains("everyone"), "says which values it takes: \(bad.output)")
        let refused = try await homes["bob"]!.chirp("send", "alice", "before")
        #expect(refused.status != 0, "\(refused.output)")
        let changed = try await alice.chirp("settings", "--message-requests", "everyone")
        #expect(changed.status == 0 && changed.output.contains("message requests: everyone"), "\(changed.output)")
        #expect(try await alice.chirp("settings", "--json").output.contains("\"messageRequests\" : \"everyone\""))

        #expect(try await alice.chirp("requests").output.contains("no message requests"))
        #expect(try await homes["bob"]!.chirp("send", "alice", "hello from bob").status == 0)
        #expect(try await homes["carol"]!.chirp("send", "alice", "hello from carol").status == 0)
        let listed = try await alice.chirp("requests")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(
            lines.count == 2 && lines[0].hasPrefix("carol (1 unread)") && lines[1].hasPrefix("bob"), "\(listed.output)")
        #expect(
            try await alice.chirp("conversations").output.contains("no conversations yet"), "requests are listed apart")

        let accepted = try await alice.chirp("accept", "bob")
        #expect(accepted.status == 0 && accepted.output.contains("accepted bob's request"), "\(accepted.output)")
        let declined = try await alice.chirp("decline", "carol")
        #expect(declined.status == 0 && declined.output.contains("declined carol's request"), "\(declined.output)")
        let nobody = try await alice.chirp("accept", "carol")
        #expect(nobody.status != 0 && nobody.output.contains("no message request from carol"), "\(nobody.output)")
        #expect(try await alice.chirp("requests").output.contains("no message requests"))
        #expect(try await alice.chirp("conversations").output.hasPrefix("bob"))
        let onServer = try await alice.session().api.send(
            ChirpEndpoints.ListConversations(page: PageParameters(limit: 10), requests: true))
        #expect(onServer.items.isEmpty)
    }
}
