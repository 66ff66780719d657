import ChirpNetworking
import Foundation
import Testing

@Suite("Server")
struct ServerTests {
    @Test func environmentsSwitchAndOffline() throws {
        let server = Server(
            environments: [
                .production: URL(string: "https://api.example.com")!, .local: URL(string: "http://127.0.0.1:8080")!,
            ],
            current: .production)
        #expect(server.environment == .production && server.baseURL.host == "api.example.com")
        try server.switch(to: .local)
        #expect(server.baseURL.port == 8080 && server.environment.description == "local")
        #expect(throws: NetworkError.unknownEnvironment("staging")) { try server.switch(to: .custom("staging")) }
        server.register(.custom("staging"), baseURL: URL(string: "https://staging.example.com")!)
        try server.switch(to: .custom("staging"))
        #expect(server.baseURL.host == "staging.example.com" && server.environment.description == "staging")
        #expect(server.environments.count == 3 && Server.Environment.production.description == "production")
        #expect(!server.isOffline)
        server.isOffline = true
        #expect(server.isOffline)
    }

    @Test func retryPolicyBacksOffExponentiallyWithJitterAndCap() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0.5)
        #expect(policy.delay(forAttempt: 0, random: 0, retryAfter: nil) == .milliseconds(50))
        #expect(policy.delay(forAttempt: 0, random: 1, retryAfter: nil) == .milliseconds(100))
        #expect(policy.delay(forAttempt: 2, random: 1, retryAfter: nil) == .milliseconds(400))
        #expect(policy.delay(forAttempt: 9, random: 1, retryAfter: nil) == .seconds(1), "capped")
        #expect(
            policy.delay(forAttempt: 0, random: 0, retryAfter: .seconds(3)) == .seconds(3),
            "Retry-After wins when longer")
        #expect(policy.delay(forAttempt: 3, random: 1, retryAfter: .milliseconds(1)) == .milliseconds(800))
        #expect(RetryPolicy(maxRetries: 1, jitter: 7).jitter == 1)
        #expect(RetryPolicy.none.maxRetries == 0 && RetryPolicy.default.maxRetries == 3)
    }

    @Test func errorsDescribeThemselves() {
        let errors: [NetworkError] = [
            .offline, .timeout, .cancelled, .transport("refused"), .http(status: 500, body: "boom"),
            .server(status: 403, code: "nope", message: "Not allowed", field: nil),
            .decoding(path: "items.[0].id", reason: "missing"), .decoding(path: "", reason: "x"),
            .unknownEnvironment("qa"),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(errors.map(\.status) == [nil, nil, nil, nil, 500, 403, nil, nil, nil])
        #expect(errors.map(\.isTransient) == [false, true, false, true, true, false, false, false, false])
        #expect(
            NetworkError.http(status: 429, body: "").isTransient
                && !NetworkError.http(status: 404, body: "").isTransient)
    }
}
