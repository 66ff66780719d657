import ChirpModels
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Testing

/// The OWASP API Security Top 10 (2023) items that apply to Chirp, each against a real server.
/// Routes without a token are swept in `AuthorizationSweepTests`; body size, the log batch
/// cap, login throttling and the message rate limit have tests of their own elsewhere.
@Suite("Security: OWASP API Top 10")
struct SecurityTests {
    // MARK: API1 broken object-level authorization

    @Test func nobodyReadsOrMarksSomeoneElsesConversation() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let mallory = try await api.register("mallory")
            try await api.follow(bob, "alice")
            try await api.follow(mallory, "alice")
            let sent = try await api.sendMessage(alice, to: "bob", "for bob only")
            let message: Message = try sent.decode()

            // Every conversation route is the viewer's own: mallory's view of "bob" is
            // mallory↔bob, which is empty, whatever ids she tries.
            let page = try await api.messages(mallory, with: "bob")
            #expect(page.items.isEmpty)
            let list: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: mallory.token).decode()
            #expect(list.items.isEmpty)
            for peer in ["alice", "bob"] {
                let reply = try await api.send(
                    .POST, "/v1/conversations/\(peer)/read", token: mallory.token,
                    json: MarkReadRequest(upTo: message.id))
                #expect(
                    reply.status == 404 && reply.errorCode == APIErrorCode.messageNotFound, "\(peer): \(reply.status)")
            }
            // Bob's copy is untouched: still unread, and alice got no read receipt.
            let bobs: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: bob.token).decode()
            #expect(bobs.items.first?.unreadCount == 1)
            #expect(try await api.allEvents(alice).allSatisfy { $0.type != EventType.messageRead })
            // Nor can anyone send as someone else: the sender is always the token's user.
            let spoofed = try await api.send(
                .PUT, "/v1/conversations/bob/messages/spoof-1", token: mallory.token,
                raw: #"{"text":"hi","sender":"alice","recipient":"bob"}"#)
            #expect(
                spoofed.status == 403 && spoofed.errorCode == APIErrorCode.dmNotAllowed, "mallory may not message bob")
        }
    }

    @Test func nobodyDeletesSomeoneElsesTweet() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let mallory = try await api.register("mallory")
            let posted = try await api.send(.PUT, "/v1/tweets/t-1", token: alice.token, json: TextBody(text: "mine"))
            let tweet: Tweet = try posted.decode()
            let attempt = try await api.send(.DELETE, "/v1/tweets/\(tweet.id)", token: mallory.token)
            #expect(attempt.status == 403)
            let page: Page<Tweet> = try await api.send(.GET, "/v1/users/alice/tweets", token: alice.token).decode()
            #expect(page.items.map(\.id) == [tweet.id], "still there")
        }
    }

    // MARK: API2 broken authentication

    @Test func revokedAndTamperedTokensAreRefused() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            var tampered = Array(alice.token)
            tampered[tampered.count - 1] = tampered.last == "A" ? "B" : "A"
            for token in [
                String(tampered), String(alice.token.dropLast()), alice.token + "A", alice.token.uppercased(),
            ] where token != alice.token {
                let reply = try await api.send(.GET, "/v1/me", token: token)
                #expect(reply.status == 401, "a token that is almost right is still wrong")
            }
            #expect(try await api.send(.DELETE, "/v1/sessions/current", token: alice.token).status == 204)
            let after = try await api.send(.GET, "/v1/me", token: alice.token)
            #expect(after.status == 401 && after.errorCode == APIErrorCode.invalidToken)
        }
    }

    @Test func spacesAndTabsAroundABearerTokenAreAllThatIsForgiven() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let padded = try await api.send(.GET, "/v1/me", headers: [("Authorization", "Bearer \t \(alice.token) \t")])
            #expect(padded.status == 200, "HTTP allows spaces and tabs around a value")
            let glued = try await api.send(.GET, "/v1/me", headers: [("Authorization", "Bearer \(alice.token)x")])
            #expect(glued.status == 401)
        }
    }

    // MARK: API3 broken object property-level authorization (mass assignment)

    @Test func clientsCannotSetServerOwnedFields() async throws {
        try await TestServer.run { api in
            let reply = try await api.send(
                .POST, "/v1/accounts",
                raw: """
                    {"username":"eve","password":"correct horse","id":"1","followersCount":1000000,
                     "followingCount":5,"createdAt":"2000-01-01T00:00:00.000Z","followsYou":true}
                    """)
            #expect(reply.status == 201)
            let auth: AuthResponse = try reply.decode()
            #expect(auth.user.followersCount == 0 && auth.user.followingCount == 0)
            #expect(auth.user.createdAt.millisecondsSince1970 > 1_700_000_000_000)
            let alice = try await api.register("alice")
            try await api.follow(alice, "eve")
            let eve = Session(user: auth.user, token: auth.token)
            let sent = try await api.send(
                .PUT, "/v1/conversations/alice/messages/m-1", token: eve.token,
                raw:
                    #"{"text":"hello","id":"999","readByRecipient":true,"createdAt":"2000-01-01T00:00:00.000Z","sender":"alice"}"#
            )
            #expect(sent.status == 201)
            let message: Message = try sent.decode()
            #expect(message.sender == "eve" && message.readByRecipient == false && message.id != "999")
            let tweet: Tweet = try await api.send(
                .PUT, "/v1/tweets/t-1", token: eve.token, raw: #"{"text":"x","author":{"username":"alice"},"id":"5"}"#
            ).decode()
            #expect(tweet.author.username == "eve")
        }
    }

    // MARK: API4 unrestricted resource consumption

    @Test(arguments: [
        "/v1/timeline?limit=101", "/v1/timeline?limit=0", "/v1/timeline?limit=-1",
        "/v1/timeline?limit=99999999999999999999",
        "/v1/conversations?limit=1000", "/v1/users/alice/followers?limit=500", "/v1/events?limit=100000",
        "/v1/events?wait=31", "/v1/events?wait=-1", "/v1/events?wait=3600",
    ])
    func limitsAndWaitsAreCapped(path: String) async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let reply = try await api.send(.GET, path, token: alice.token)
            #expect(reply.status == 400 && reply.errorCode == APIErrorCode.invalidParameter, "\(path): \(reply.status)")
        }
    }

    @Test func oversizedWebSocketFramesCloseTheStream() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let port = api.port
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(alice.token)"
            var logger = Logger(label: "ws.test")
            logger.logLevel = .critical
            let closed = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/v1/events/stream",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: logger
            ) { inbound, outbound, _ in
                try await outbound.write(.text(String(repeating: "x", count: 70 * 1024)))
                // The server ends the connection instead of buffering the frame.
                for try await _ in inbound {}
            }
            #expect(closed?.closeCode == .messageTooLarge, "closed: \(String(describing: closed))")
            // The server is fine afterwards.
            #expect(try await api.send(.GET, "/v1/me", token: alice.token).status == 200)
        }
    }

    @Test func nulCharactersAreRefusedEverywhereAndNeverA500() async throws {
        // PostgreSQL cannot store U+0000 at all; both storages refuse it the same way.
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let message = try await api.send(
                .PUT, "/v1/conversations/bob/messages/n-1", token: alice.token, raw: #"{"text":"a\u0000b"}"#)
            #expect(message.status == 422 && message.errorCode == "invalid_text", "\(message.status) \(message.text)")
            let tweet = try await api.send(.PUT, "/v1/tweets/n-1", token: alice.token, raw: #"{"text":" \u0000u"}"#)
            #expect(tweet.status == 422 && tweet.errorCode == "invalid_text", "\(tweet.status) \(tweet.text)")
            let log = try await api.send(
                .POST, "/v1/logs", token: alice.token,
                raw: """
                    {"batchId":"n-1","entries":[{"level":"error","message":"x","timestamp":"2026-11-22T10:15:30.123Z","metadata":{"k":"v\\u0000"}}]}
                    """)
            #expect(log.status == 422 && log.errorCode == "invalid_text", "\(log.status) \(log.text)")
            let name = try await api.send(
                .POST, "/v1/accounts", raw: #"{"username":"carol","password":"correct horse","displayName":"c\u0000"}"#)
            #expect(name.status == 422, "\(name.status) \(name.text)")
            #expect(try await api.messages(alice, with: "bob").items.isEmpty, "nothing was stored")
        }
    }

    // MARK: API5 broken function-level authorization

    // (`GET /v1/sessions` lists the caller's own sessions only: see AccountSecurityTests.)
    @Test(arguments: ["/v1/admin/logs", "/v1/users", "/v1/admin/sessions", "/v1/logs"])
    func thereAreNoAdministrativeReadsOverHTTP(path: String) async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let reply = try await api.send(.GET, path, token: alice.token)
            #expect(reply.status == 404 || reply.status == 405, "\(path): \(reply.status)")
            #expect(reply.errorCode != nil, "the API envelope, not a default page")
        }
    }

    // MARK: API8 security misconfiguration

    @Test func errorsLeakNoInternals() async throws {
        try await TestServer.run { api in
            let reply = try await api.send(.POST, "/v1/sessions", raw: #"{"username":"nobody","password":"x"#)
            #expect(reply.status == 400)
            for leak in ["Swift", "GRDB", "SQL", "DecodingError", "/work/", ".swift"] {
                #expect(!reply.text.contains(leak), "\(leak) in \(reply.text)")
            }
            #expect(reply.headers["Server"].first.map { !$0.contains("/") } ?? true, "no version in Server")
        }
    }
}
