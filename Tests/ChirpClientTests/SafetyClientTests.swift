import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Block and report from the client: the `UserSession` façade, the sync engine's handling of
/// `block.created`/`block.deleted`, and the CLI commands, against a real `chirp serve`.
@Suite("Client safety: block and report", .serialized)
struct SafetyClientTests {
    static func peers(_ session: UserSession, refresh: Bool) async throws -> [String] {
        try await session.conversations(refresh: refresh, includingFollowers: false).map(\.peerName)
    }

    @Test func blockingOnOneDeviceClearsTheOtherDevicesListsAndUnblockingRestoresThem() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)
        #expect(try await bob.chirp("send", "alice", "hello alice").status == 0)
        #expect(try await bob.chirp("tweet", "bob's news").status == 0)
        // alice's second device.
        let laptop = ClientHome(server: server.baseURL)
        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)
        let second = try laptop.session()
        _ = try await second.synchronize()
        #expect(try await Self.peers(second, refresh: true) == ["bob"])
        #expect(try await second.timeline(limit: 10, refresh: true).map(\.author) == ["bob"])

        // The façade on the first device: the local lists drop bob at once.
        let first = try alice.session()
        _ = try await first.conversations(refresh: true)
        try await first.block("bob")
        #expect(try await Self.peers(first, refresh: false) == [])
        #expect(try await first.blocks().items.map(\.username) == ["bob"])

        // The second device learns it from its event stream.
        _ = try await second.synchronize()
        #expect(try await Self.peers(second, refresh: false) == [], "block.created removed the conversation locally")
        #expect(try await second.timeline(limit: 10, refresh: false).isEmpty, "and bob's tweets")
        #expect(
            try await second.messages(with: "bob", limit: 10, refresh: false).items.map(\.text) == ["hello alice"],
            "messages stay stored")

        try await first.unblock("bob")
        #expect(try await Self.peers(first, refresh: false) == ["bob"], "unblocking refreshes the list")
        _ = try await second.synchronize()
        #expect(try await Self.peers(second, refresh: false) == ["bob"], "block.deleted refreshed the list")
        #expect(try await first.blocks().items.isEmpty)
    }

    @Test func theCommandsBlockUnblockListAndReport() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)
        #expect(try await bob.chirp("send", "alice", "buy cheap watches").status == 0)
        let message = try #require(
            try await alice.session().api.send(ChirpEndpoints.ListMessages(with: "bob", limit: 10)).items.first)

        let blocked = try await alice.chirp("block", "bob")
        #expect(blocked.status == 0 && blocked.output.contains("blocked bob"), "\(blocked.output)")
        #expect(try await alice.chirp("blocks").output.contains("bob"))
        #expect(!(try await alice.chirp("conversations").output.contains("bob")))
        let refollow = try await bob.chirp("follow", "alice")
        #expect(refollow.status != 0 && refollow.output.contains("You cannot follow alice"), "\(refollow.output)")
        #expect(refollow.output.split(separator: "\n").count == 1, "one line: \(refollow.output)")
        let self_ = try await alice.chirp("block", "alice")
        #expect(self_.status != 0 && self_.output.contains("You cannot block yourself"))

        let report = try await alice.chirp(
            "report", "bob", "--message", message.id, "--reason", "spam", "--note", "again")
        #expect(report.status == 0 && report.output.contains("reported bob"), "\(report.output)")
        let badReason = try await alice.chirp("report", "bob", "--reason", "rude")
        #expect(badReason.status != 0)
        let notTheirs = try await alice.chirp("report", "bob", "--message", "999999", "--reason", "other")
        #expect(notTheirs.status != 0 && notTheirs.output.contains("no message"), "\(notTheirs.output)")

        let admin = try await runChirp(["admin", "reports", "--data-dir", server.dataDirectory.path])
        #expect(admin.status == 0)
        #expect(
            admin.output.contains("alice reported bob for spam") && admin.output.contains("text=\"buy cheap watches\""),
            "\(admin.output)")
        #expect(admin.output.contains("note=\"again\""))
        let future = try await runChirp([
            "admin", "reports", "--data-dir", server.dataDirectory.path, "--since", "2999-01-01T00:00:00Z",
        ])
        #expect(future.status == 0 && future.output.isEmpty, "\(future.output)")
        #expect(
            try await runChirp(["admin", "reports", "--data-dir", server.dataDirectory.path, "--since", "24h"]).output
                .contains("alice reported bob"))

        let unblocked = try await alice.chirp("unblock", "bob")
        #expect(unblocked.status == 0 && unblocked.output.contains("unblocked bob"))
        #expect(try await alice.chirp("conversations").output.contains("bob"))
        #expect(try await alice.chirp("blocks").output.contains("you have blocked nobody"))
    }
}
