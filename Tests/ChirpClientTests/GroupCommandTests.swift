import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// `chirp group …`, `chirp send --group`, the action commands with `--group`, and group
/// requests, pins and mutes by `g:ID`, run as the `chirp` binary against a real server.
@Suite("Group commands", .serialized)
struct GroupCommandTests {
    /// The group id `chirp group create` printed (`group ID: …`).
    static func groupId(_ output: String) -> String? {
        output.split(separator: "\n").first.flatMap { line in
            line.hasPrefix("group ") ? line.dropFirst(6).split(separator: ":").first.map(String.init) : nil
        }
    }

    @Test func createSendReactManageAndLeaveAGroup() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let (alice, bob, carol) = (homes["alice"]!, homes["bob"]!, homes["carol"]!)

        let none = try await alice.chirp("group", "create", "Lonely")
        #expect(none.status != 0 && none.output.contains("at least one other member"), "\(none.output)")
        let badTitle = try await alice.chirp("group", "create", "   ", "bob")
        #expect(badTitle.status != 0 && badTitle.output.contains("1 to 80"), "\(badTitle.output)")
        let created = try await alice.chirp("group", "create", "Team", "bob", "carol")
        #expect(
            created.status == 0 && created.output.contains("alice (admin)") && created.output.contains("bob"),
            "\(created.output)")
        let id = try #require(Self.groupId(created.output))

        let sent = try await alice.chirp("send", "--group", id, "hello", "team")
        #expect(sent.status == 0 && sent.output.contains("sent: hello team → g:\(id)"), "\(sent.output)")
        let badGroup = try await alice.chirp("send", "--group", "team", "hi")
        #expect(badGroup.status != 0 && badGroup.output.contains("group's number"), "\(badGroup.output)")
        let shown = try await bob.chirp("messages", "--group", id)
        #expect(shown.status == 0 && shown.output.contains("alice: hello team"), "\(shown.output)")
        let serverId = try #require(shown.output.split(separator: "#").last.map { String($0.prefix { $0.isNumber }) })
        let reacted = try await bob.chirp("react", "--group", id, serverId, "👍")
        #expect(reacted.status == 0 && reacted.output.contains("reacted 👍"), "\(reacted.output)")
        let noPeer = try await bob.chirp("react", serverId, "👍")
        #expect(
            noPeer.status != 0 && noPeer.output.contains("--group"),
            "says how to name the conversation: \(noPeer.output)")
        let mine = try await alice.chirp("messages", "--group", id)
        #expect(mine.output.contains("read by 1") && mine.output.contains("👍 1"), "\(mine.output)")

        let found = try await carol.chirp("search", "hello", "--with", "g:\(id)")
        #expect(found.status == 0 && found.output.contains("alice → group \(id): hello team"), "\(found.output)")
        let conversations = try await carol.chirp("conversations")
        #expect(conversations.output.contains("Team (--group \(id)) (1 unread)"), "\(conversations.output)")
        #expect(try await carol.chirp("pin", "g:\(id)").output.contains("pinned g:\(id)"))
        // The kit's keys were `group:ID` before they were one with the web client's: still understood.
        #expect(try await carol.chirp("mute", "group:\(id)").output.contains("muted g:\(id)"))
        #expect(try await carol.chirp("conversations").output.hasPrefix("📌 🔕 Team"))

        let refused = try await bob.chirp("group", "rename", id, "Mine")
        #expect(refused.status != 0, "only admins rename: \(refused.output)")
        #expect(try await alice.chirp("group", "rename", id, "Team B").output.contains("renamed group \(id): Team B"))
        #expect(try await alice.chirp("group", "admin", id, "bob").output.contains("bob is an admin"))
        #expect(try await bob.chirp("group", "remove", id, "carol").status == 0)
        let listed = try await carol.chirp("group", "list")
        #expect(listed.output.contains("Team B (you left)") || listed.output.contains("(you left)"), "\(listed.output)")
        let late = try await carol.chirp("send", "--group", id, "wait")
        #expect(late.status != 0 && late.output.contains("no longer in group"), "\(late.output)")
        #expect(try await bob.chirp("group", "leave", id).output.contains("left group \(id)"))
        let shownGroup = try await alice.chirp("group", "show", id)
        #expect(
            shownGroup.output.contains("1 members") || shownGroup.output.contains("alice (admin)"),
            "\(shownGroup.output)")
    }

    @Test func aGroupRequestIsListedAndAccepted() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(
            ["alice", "bob", "dave"], server: server.baseURL, following: false)
        #expect(try await homes["alice"]!.chirp("follow", "bob").status == 0)
        #expect(try await homes["bob"]!.chirp("follow", "alice").status == 0)
        let dave = homes["dave"]!
        #expect(try await dave.chirp("settings", "--message-requests", "everyone").status == 0)
        let created = try await homes["alice"]!.chirp("group", "create", "Hello", "bob", "dave")
        let id = try #require(Self.groupId(created.output), "\(created.output)")
        #expect(try await homes["alice"]!.chirp("send", "--group", id, "welcome").status == 0)
        let requests = try await dave.chirp("requests")
        #expect(requests.output.contains("Hello (--group \(id))"), "\(requests.output)")
        let accepted = try await dave.chirp("accept", "g:\(id)")
        #expect(accepted.status == 0 && accepted.output.contains("accepted g:\(id)'s request"), "\(accepted.output)")
        #expect(try await dave.chirp("requests").output.contains("no message requests"))
        #expect(try await dave.chirp("conversations").output.contains("Hello (--group \(id))"))
    }
}
