import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp sessions`, `chirp password` and `chirp delete-account` as processes against a real
/// `chirp serve`, and `user.deleted` applied by a peer's sync engine.
@Suite("Account security commands", .serialized)
struct AccountSecurityCommandTests {
    @Test func sessionsListsAndEndsAndPasswordEndsTheOthers() async throws {
        let server = try await ServerProcess()
        defer { Task { _ = try? await server.stop(signal: SIGTERM) } }
        let phone = ClientHome(server: server.baseURL)
        try await phone.register("alice")
        let laptop = ClientHome(server: server.baseURL)
        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)

        let table = try await phone.chirp("sessions")
        #expect(table.status == 0, "\(table.output)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("USER AGENT") == true)
        let rows = lines.filter { $0.contains("chirp (") }
        #expect(rows.count == 2, "\(table.output)")
        #expect(rows.filter { $0.hasPrefix("*") }.count == 1, "the current one is marked")

        let json = try await phone.chirp("sessions", "--json")
        let sessions = try JSONDecoder().decode([SessionSummary].self, from: Data(json.output.utf8))
        let other = try #require(sessions.first { !$0.current })
        let ended = try await phone.chirp("sessions", "--end", other.id)
        #expect(ended.status == 0 && ended.output.contains("ended session \(other.id)"), "\(ended.output)")
        let refused = try await laptop.chirp("whoami")
        #expect(refused.status != 0 && refused.output.contains("expired or was revoked"), "\(refused.output)")
        #expect(try await phone.chirp("sessions", "--end", other.id).status != 0, "no longer there")

        #expect(try await laptop.chirp("login", "alice", input: "password-alice\n").status == 0)
        let wrong = try await phone.chirp("password", input: "not-the-password\nnew-password-1\n")
        #expect(wrong.status != 0 && wrong.output.contains("password is wrong"), "\(wrong.output)")
        #expect(try await phone.chirp("whoami").status == 0, "a wrong password keeps the session")
        let changed = try await phone.chirp("password", input: "password-alice\nnew-password-1\n")
        #expect(changed.status == 0 && changed.output.contains("password changed"), "\(changed.output)")
        #expect(try await phone.chirp("whoami").status == 0)
        #expect(try await laptop.chirp("whoami").status != 0, "the other session ended")
        #expect(try await laptop.chirp("login", "alice", input: "new-password-1\n").status == 0)
    }

    @Test func deleteAccountWipesLocalDataAndThePeerForgetsTheConversation() async throws {
        let server = try await ServerProcess()
        defer { Task { _ = try? await server.stop(signal: SIGTERM) } }
        let alice = ClientHome(server: server.baseURL)
        let bob = ClientHome(server: server.baseURL)
        try await alice.register("alice")
        try await bob.register("bob")
        #expect(try await bob.chirp("follow", "alice").status == 0)
        #expect(try await alice.chirp("send", "bob", "hello bob").status == 0)
        #expect(try await bob.chirp("sync").status == 0)
        #expect(try await bob.chirp("conversations").output.contains("alice"))

        let wrong = try await alice.chirp("delete-account", input: "not-it-at-all\n")
        #expect(wrong.status != 0 && wrong.output.contains("password is wrong"), "\(wrong.output)")
        #expect(try await alice.chirp("whoami").status == 0)
        let deleted = try await alice.chirp("delete-account", input: "password-alice\n")
        #expect(deleted.status == 0 && deleted.output.contains("deleted the account alice"), "\(deleted.output)")
        #expect(
            !FileManager.default.fileExists(atPath: alice.directory.appendingPathComponent("users/alice").path),
            "local data wiped")
        #expect(try await alice.chirp("whoami").output.contains("not logged in"))

        // Bob's sync applies user.deleted: the conversation under alice's name leaves his
        // client; the server keeps it as the deleted account's, readable and read-only.
        #expect(try await bob.chirp("sync").status == 0)
        let session = try bob.session()
        #expect(try await session.conversations(refresh: false).allSatisfy { $0.id != "alice" })
        #expect(try await session.messages(with: "alice", limit: 50, refresh: false).items.isEmpty)
        let listed = try await bob.chirp("conversations").output
        #expect(!listed.contains("alice") && listed.contains("Deleted account (deleted-"), "\(listed)")
        let kept = try #require(
            try await session.conversations(refresh: true).first { Validation.isDeletedAccountName($0.id) })
        let history = try await session.messages(with: kept.id, limit: 50, refresh: true).items
        #expect(history.count == 1 && history.allSatisfy(\.deleted), "alice's message, as a tombstone")
        let refused = try await bob.chirp("send", kept.id, "are you there?")
        #expect(refused.status != 0 && refused.output.contains("account was deleted"), "\(refused.output)")

        // The name is free again.
        let again = ClientHome(server: server.baseURL)
        try await again.register("alice")
    }
}
