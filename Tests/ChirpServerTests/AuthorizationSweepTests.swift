import ChirpModels
import ChirpServer
import NIOHTTP1
import Testing

@Suite("Every protected route")
struct AuthorizationSweepTests {
    /// Concrete paths for each route template.
    static func path(for route: APIRoute, username: String = "alice") -> String {
        route.path([
            "username": username, "clientMessageId": "c1", "clientTweetId": "t1", "id": "1", "messageId": "1",
            "emoji": "👍",
        ])
    }

    /// The server each sweep's cases share (a server per route was one start per case); each
    /// case registers a user of its own, whose token only it ends.
    static let tokenSweepServer = SharedTestServer()
    static let unknownUserSweepServer = SharedTestServer()

    @Test(arguments: APIRoute.all.filter(\.requiresAuth))
    func refusesMissingAndRevokedTokens(_ route: APIRoute) async throws {
        let api = try await Self.tokenSweepServer.api
        let username = Self.tokenSweepServer.nextUsername("alice")
        let alice = try await api.register(username)
        let method = HTTPMethod(rawValue: route.method.rawValue)
        let body: (any Encodable & Sendable)? =
            route.method == .get || route.method == .delete ? nil : TextBody(text: "x")
        let anonymous = try await api.send(method, Self.path(for: route, username: username), json: body)
        #expect(anonymous.status == 401, "\(route)")
        #expect(anonymous.errorCode == "unauthorized")
        _ = try await api.send(.DELETE, "/v1/sessions/current", token: alice.token)
        let revoked = try await api.send(
            method, Self.path(for: route, username: username), token: alice.token, json: body)
        #expect(revoked.status == 401 && revoked.errorCode == "invalid_token", "\(route)")
    }

    @Test(arguments: APIRoute.all.filter { $0.template.contains("{username}") })
    func unknownUsersAre404(_ route: APIRoute) async throws {
        let server = Self.unknownUserSweepServer
        let api = try await server.api
        let username = server.nextUsername("alice")
        let alice = try await api.register(username)
        // The operators' routes answer everyone else 403 before looking at the name.
        if APIRoute.moderation.contains(route) {
            #expect(
                try await ServerAdministration.setOperator(
                    configuration: server.configuration, username: username, true))
        }
        let method = HTTPMethod(rawValue: route.method.rawValue)
        let body: (any Encodable & Sendable)? =
            switch route {
            case .markRead: MarkReadRequest(upTo: "1")
            case .sendMessage, .editMessage: TextBody(text: "hello")
            default: nil
            }
        for name in ["nobody", "x", "bad%20name"] {
            let reply = try await api.send(
                method,
                Self.path(for: route, username: name).replacingOccurrences(of: "bad%2520name", with: "bad%20name"),
                token: alice.token, json: body)
            #expect(reply.status == 404, "\(route) \(name): \(reply.text)")
        }
    }
}
