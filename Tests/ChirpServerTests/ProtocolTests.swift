import ChirpModels
import Foundation
import Testing

@Suite("HTTP protocol: errors, limits, operations endpoints")
struct ProtocolTests {
    @Test func oversizedBodiesAre413AndNothingIsStored() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let big = String(repeating: "x", count: 70 * 1024)
            let reply = try await api.send(
                .PUT, "/v1/conversations/bob/messages/big", token: alice.token, json: TextBody(text: big))
            #expect(reply.status == 413 && reply.errorCode == "body_too_large")
            let account = try await api.send(
                .POST, "/v1/accounts", raw: #"{"username":"x","password":""# + big + #""}"#)
            #expect(account.status == 413)
            #expect(try await api.messages(bob, with: "alice").items.isEmpty)
        }
    }

    @Test func unknownPathsAndMethodsUseTheEnvelope() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let missing = try await api.send(.GET, "/v2/nothing", token: alice.token)
            #expect(missing.status == 404 && missing.errorCode == "not_found")
            let wrongMethod = try await api.send(.POST, "/v1/users/alice/follow", token: alice.token)
            #expect(wrongMethod.status == 405 && wrongMethod.errorCode == "method_not_allowed")
            #expect(wrongMethod.headers.first(name: "Allow") == "PUT, DELETE")
            let badCursor = try await api.send(.GET, "/v1/timeline?cursor=-1", token: alice.token)
            #expect(badCursor.status == 400 && badCursor.errorCode == "invalid_parameter")
            let zeroLimit = try await api.send(.GET, "/v1/timeline?limit=0", token: alice.token)
            #expect(zeroLimit.status == 400)
            let unauthenticated = try await api.send(.GET, "/v1/timeline")
            #expect(unauthenticated.status == 401)
        }
    }

    @Test func healthMetricsAndSpecAreServed() async throws {
        try await TestServer.run { api in
            let health = try await api.send(.GET, "/healthz")
            #expect(health.status == 200)
            #expect(try health.decode(HealthStatus.self).status == "ok")
            #expect(health.headers.first(name: "X-Request-Id") != nil)
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            _ = try await api.sendMessage(alice, to: "bob", "counted")
            let metrics = try await api.send(.GET, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("chirp_messages_sent_total 1"))
            #expect(
                metrics.text.contains(#"chirp_http_requests_total{route="/v1/accounts",method="POST",status="201"} 2"#))
            #expect(metrics.text.contains("chirp_http_request_duration_seconds_bucket"))
            #expect(
                metrics.text.contains(
                    #"route="/v1/conversations/{username}/messages/{clientMessageId}",method="PUT",status="201""#))
            let spec = try await api.send(.GET, "/openapi.yaml")
            #expect(spec.status == 200 && spec.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test func chaosModeAnswers503WithRetryAfter() async throws {
        let configuration = TestServer.configuration { $0.chaosRate = 1 }
        try await TestServer.run(configuration) { api in
            let reply = try await api.send(
                .POST, "/v1/accounts", json: RegisterRequest(username: "alice", password: "long enough"))
            #expect(reply.status == 503 && reply.errorCode == "unavailable")
            #expect(reply.headers.first(name: "Retry-After") == "1")
            #expect(try await api.send(.GET, "/healthz").status == 200)
        }
    }

    @Test func openAPIDocumentListsExactlyTheServedRoutes() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ChirpServer/Resources/openapi.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        var documented: Set<String> = []
        var currentPath: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            if inPaths, !line.hasPrefix(" "), !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath,
                let method = ["get", "post", "put", "delete", "patch"].first(where: { line == "    \($0):" })
            {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        // DELETE /v1/tweets/{id} shares its path template with PUT /v1/tweets/{clientTweetId},
        // GET /v1/media/{id} with PUT /v1/media/{clientMediaId}, PATCH and DELETE
        // /v1/conversations/{username}/messages/{messageId} with the send's {clientMessageId},
        // PUT /v1/groups/{clientGroupId} with GET and PATCH /v1/groups/{id}.
        let served = Set(
            APIRoute.all.map {
                switch $0 {
                case .editMessage, .unsendMessage, .editGroupMessage, .unsendGroupMessage:
                    $0.description.replacingOccurrences(of: "{messageId}", with: "{clientMessageId}")
                case .deleteTweet: $0.description.replacingOccurrences(of: "{id}", with: "{clientTweetId}")
                case .downloadMedia: $0.description.replacingOccurrences(of: "{id}", with: "{clientMediaId}")
                case .createGroup: $0.description.replacingOccurrences(of: "{clientGroupId}", with: "{id}")
                default: $0.description
                }
            })
        #expect(documented == served)
    }
}
