import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Operators from the command line, against a real `chirp serve`: `chirp admin grant` and
/// `revoke` on the running server's data directory, and the operator commands through the
/// server's `/v1/admin` routes.
@Suite("Client moderation: operators", .serialized)
struct ModerationClientTests {
    @Test func grantRevokeAndTheOperatorCommands() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)
        #expect(try await bob.chirp("send", "alice", "buy cheap watches").status == 0)
        let message = try #require(
            try await alice.session().api.send(ChirpEndpoints.ListMessages(with: "bob", limit: 10)).items.first)
        #expect(try await alice.chirp("report", "bob", "--message", message.id, "--reason", "spam").status == 0)

        let refused = try await alice.chirp("admin", "reports")
        #expect(refused.status != 0 && refused.output.contains("Only the server's operators"), "\(refused.output)")
        let dataDir = server.dataDirectory.path
        let grant = try await runChirp(["admin", "grant", "alice", "--data-dir", dataDir])
        #expect(grant.status == 0 && grant.output.contains("alice is now an operator"), "\(grant.output)")
        #expect(try await runChirp(["admin", "grant", "alice", "--data-dir", dataDir]).output.contains("already"))
        #expect(try await runChirp(["admin", "grant", "nobody", "--data-dir", dataDir]).status != 0)

        let reports = try await alice.chirp("admin", "reports")
        #expect(reports.status == 0 && reports.output.contains("alice reported bob for spam"), "\(reports.output)")
        #expect(reports.output.contains("text=\"buy cheap watches\""))
        let id = try #require(try await alice.session().moderationReports().items.first?.id)
        let resolve = try await alice.chirp("admin", "resolve", id, "--action", "remove-message")
        #expect(resolve.status == 0 && resolve.output.contains("resolved report \(id)"), "\(resolve.output)")
        #expect(
            try await alice.chirp("admin", "reports", "--resolved").output.contains("resolved=remove-message by=alice"))
        let shown = try await alice.chirp("messages", "bob")
        #expect(shown.output.contains("bob: (removed by the operators)"), "\(shown.output)")

        let suspend = try await alice.chirp("admin", "suspend", "bob")
        #expect(suspend.status == 0 && suspend.output.contains("suspended bob"), "\(suspend.output)")
        let shut = try await bob.chirp("conversations")
        #expect(shut.status != 0, "bob's session ended: \(shut.output)")
        let login = try await bob.chirp("login", "bob", input: "password-bob\n")
        #expect(login.status != 0 && login.output.contains("suspended"), "\(login.output)")
        #expect(try await alice.chirp("admin", "unsuspend", "bob").status == 0)
        #expect(try await bob.chirp("login", "bob", input: "password-bob\n").status == 0)
        #expect(try await alice.chirp("admin", "remove-message", message.id).status == 0)

        let audit = try await alice.chirp("admin", "audit")
        #expect(audit.status == 0, "\(audit.output)")
        for line in [
            "(command line) grant alice", "alice remove-message \(message.id)", "alice suspend bob",
            "alice unsuspend bob",
            "alice resolve-report \(id)",
        ] {
            #expect(audit.output.contains(line), "\(line) in \(audit.output)")
        }
        #expect(try await alice.chirp("admin", "stats").output.contains("users 2"))

        let revoke = try await runChirp(["admin", "revoke", "alice", "--data-dir", dataDir])
        #expect(revoke.status == 0 && revoke.output.contains("alice is no longer an operator"), "\(revoke.output)")
        #expect(try await alice.chirp("admin", "audit").status != 0)
        // The direct read of the database still works without a login.
        #expect(
            try await runChirp(["admin", "reports", "--data-dir", dataDir]).output.contains(
                "alice reported bob for spam"))
    }
}
