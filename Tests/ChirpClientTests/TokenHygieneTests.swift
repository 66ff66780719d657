import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import HummingbirdWSClient
import Logging
import Testing

/// Session tokens never reach the server's log, however verbose, including the `?token=` form
/// of the event stream for clients that cannot set headers.
@Suite("Token hygiene", .serialized)
struct TokenHygieneTests {
    @Test func tokensNeverAppearInTheServerLogEvenAtTraceLevel() async throws {
        let server = try await ServerProcess(arguments: ["--log-level", "trace"])
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let bob = try homes["bob"]!.session()
        let token = try #require(bob.api.token)

        // The stream with ?token=: one event arrives, then the client closes.
        var logger = Logger(label: "test.ws")
        logger.logLevel = .critical
        let received = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(server.port)/v1/events/stream?since=0&token=\(token)", logger: logger
        ) { inbound, outbound, _ in
            var iterator = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            _ = try await iterator.next()
            try await outbound.close(.normalClosure, reason: nil)
        }
        _ = received
        // A wrong token in the query is refused and not logged either.
        await #expect(throws: (any Error).self) {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(server.port)/v1/events/stream?token=not-a-token-\(token.prefix(8))",
                logger: logger
            ) { _, _, _ in }
        }
        // Header-authenticated traffic and a logout.
        _ = try await homes["alice"]!.chirp("send", "bob", "hello")
        _ = try await homes["bob"]!.chirp("messages", "alice")
        let aliceToken = try #require(try homes["alice"]!.session().api.token)
        _ = try await homes["alice"]!.chirp("logout")
        try await Task.sleep(for: .milliseconds(200))

        let log = server.output
        #expect(log.contains("DELETE /v1/sessions/current 204"), "requests are logged (path and status) at this level")
        #expect(!log.contains(token), "bob's token is in the server log")
        #expect(!log.contains(aliceToken), "alice's token is in the server log")
        #expect(!log.contains("not-a-token"), "a refused token is in the server log")
    }
}
