import ChirpModels
import Foundation
import PostgresNIO
import Testing

@testable import ChirpServer

/// On PostgreSQL an instance keeps the sessions it verified, but trusts them only for sends,
/// whose write confirms the session (`SessionConfirmation.bySendWrite`): a session ended where
/// this instance cannot see it (here, deleted in the database with no word on the bus, as a
/// lost notification from another instance would leave it) stops the token on the next
/// request, a send included, and nothing is stored for it.
@Suite(
    "Sessions on a shared database",
    .enabled(
        if: TestDatabase.postgresAdminURL != nil || ProcessInfo.processInfo.environment["CI"] != nil,
        "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
struct SharedDatabaseSessionTests {
    /// Deletes the user's sessions straight in the database, with no word on the bus.
    static func endSessionsUnannounced(of user: Session, in settings: PostgresSettings) async throws {
        try await TestDatabase.withConnection(settings) { connection, logger in
            try await connection.query("DELETE FROM sessions WHERE user_id = \(Int64(user.user.id)!)", logger: logger)
        }
    }

    @Test func aSessionEndedBehindTheInstancesBackStopsItsSendsAtOnce() async throws {
        let settings = try #require(TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI")
        let configuration = TestServer.configuration { $0.postgres = settings }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for text in ["one", "two"] { #expect(try await api.sendMessage(alice, to: "bob", text).status == 201) }
            let first = try #require(try await api.messages(bob, with: "alice").items.first)

            try await Self.endSessionsUnannounced(of: alice, in: settings)
            let refused = try await api.sendMessage(alice, to: "bob", "three")
            #expect(
                refused.status == 401 && refused.text.contains(APIErrorCode.invalidToken),
                "\(refused.status) \(refused.text)")
            let reply = try await api.send(
                .PUT, "/v1/conversations/bob/messages/\(UUID().uuidString)", token: alice.token,
                json: SendMessageRequest(text: "a reply", replyTo: first.id))
            #expect(
                reply.status == 401, "a send that reads for the viewer first confirms the session first: \(reply.text)")
            #expect(
                try await api.send(.GET, "/v1/me", token: alice.token).status == 401, "other routes ask the database")
            #expect(try await api.messages(bob, with: "alice").items.map(\.text) == ["one", "two"])
            #expect(try await api.send(.GET, "/v1/me", token: bob.token).status == 200)
        }
    }

    /// At the message limit a retry is answered with the stored message, which is a read: a
    /// cached session is confirmed first.
    @Test func aRetryAtTheMessageLimitIsAnsweredOnlyWhileTheSessionLives() async throws {
        let settings = try #require(TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI")
        let configuration = TestServer.configuration {
            $0.postgres = settings
            $0.messageRateLimit = 2
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for id in ["m1", "m2"] {
                #expect(try await api.sendMessage(alice, to: "bob", "hello", clientId: id).status == 201)
            }
            #expect(try await api.sendMessage(alice, to: "bob", "hello", clientId: "m3").status == 429)
            #expect(
                try await api.sendMessage(alice, to: "bob", "hello", clientId: "m2").status == 200,
                "a retry at the limit")
            try await Self.endSessionsUnannounced(of: alice, in: settings)
            let retry = try await api.sendMessage(alice, to: "bob", "hello", clientId: "m2")
            #expect(retry.status == 401, "\(retry.status) \(retry.text)")
        }
    }
}
