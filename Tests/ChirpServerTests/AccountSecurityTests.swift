import ChirpModels
import Foundation
import Testing

/// Sessions list, ending a session, password change and account deletion (API.md part 2,
/// "Accounts and sessions"), over a real server on SQLite, or PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`.
@Suite("Account security")
struct AccountSecurityTests {
    /// Registers `username` from a client that says it is `agent`.
    static func register(_ api: APIHarness, _ username: String, agent: String, password: String = "correct horse")
        async throws -> Session
    {
        let reply = try await api.send(
            .POST, "/v1/accounts", json: RegisterRequest(username: username, password: password),
            headers: [("User-Agent", agent)])
        try #require(reply.status == 201, "register: \(reply.status) \(reply.text)")
        let auth: AuthResponse = try reply.decode()
        return Session(user: auth.user, token: auth.token)
    }

    /// Logs in from a client that says it is `agent`; returns the new token.
    static func login(_ api: APIHarness, _ username: String, agent: String, password: String = "correct horse")
        async throws -> String
    {
        let reply = try await api.send(
            .POST, "/v1/sessions", json: LoginRequest(username: username, password: password),
            headers: [("User-Agent", agent)])
        try #require(reply.status == 201, "login: \(reply.status) \(reply.text)")
        return try reply.decode(AuthResponse.self).token
    }

    static func sessions(_ api: APIHarness, token: String) async throws -> [SessionSummary] {
        let reply = try await api.send(.GET, "/v1/sessions", token: token)
        try #require(reply.status == 200, "sessions: \(reply.status) \(reply.text)")
        return try reply.decode(SessionList.self).items
    }

    static func status(_ api: APIHarness, token: String) async throws -> Int {
        try await api.send(.GET, "/v1/me", token: token).status
    }

    @Test func sessionsAreListedWithTheCurrentOneTheirUserAgentAndLastUse() async throws {
        let configuration = TestServer.configuration { $0.sessionLastUseInterval = .zero }
        try await TestServer.run(configuration) { api in
            let phone = try await Self.register(api, "alice", agent: "phone/1.0")
            try await Task.sleep(for: .milliseconds(5))
            let laptop = try await Self.login(api, "alice", agent: "laptop/2.0")
            let bob = try await Self.register(api, "bob", agent: "bob's")

            let fromLaptop = try await Self.sessions(api, token: laptop)
            #expect(fromLaptop.count == 2, "only alice's sessions")
            #expect(
                fromLaptop.map(\.userAgent) == ["laptop/2.0", "phone/1.0"], "newest first, with the creating user agent"
            )
            #expect(fromLaptop.map(\.current) == [true, false])
            #expect(
                Set(fromLaptop.map(\.id)).count == 2 && !fromLaptop.contains { $0.id.isEmpty || laptop.contains($0.id) }
            )
            let fromPhone = try await Self.sessions(api, token: phone.token)
            #expect(fromPhone.map(\.current) == [false, true], "the current one is the caller's")
            #expect(Set(fromPhone.map(\.id)) == Set(fromLaptop.map(\.id)))

            // A use moves the session's last use forward.
            let before = try #require(fromPhone.first { $0.current })
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await Self.status(api, token: phone.token) == 200)
            let after = try #require(try await Self.sessions(api, token: laptop).first { !$0.current })
            #expect(after.lastUsedAt.millisecondsSince1970 > before.lastUsedAt.millisecondsSince1970)
            #expect(after.createdAt == before.createdAt)
            #expect(try await Self.sessions(api, token: bob.token).map(\.userAgent) == ["bob's"])
        }
    }

    @Test func lastUseIsWrittenAtMostOncePerIntervalNotPerRequest() async throws {
        try await TestServer.run { api in  // the default interval: 60 s
            let alice = try await Self.register(api, "alice", agent: "a")
            let first = try #require(try await Self.sessions(api, token: alice.token).first)
            #expect(first.lastUsedAt == first.createdAt)
            try await Task.sleep(for: .milliseconds(20))
            for _ in 0..<3 { #expect(try await Self.status(api, token: alice.token) == 200) }
            let again = try #require(try await Self.sessions(api, token: alice.token).first)
            #expect(again.lastUsedAt == first.lastUsedAt, "no write within the interval")
        }
    }

    @Test func endingASessionStopsItsTokenAtOnceAndOnlyTheOwnerCan() async throws {
        try await TestServer.run { api in
            let phone = try await Self.register(api, "alice", agent: "phone")
            let laptop = try await Self.login(api, "alice", agent: "laptop")
            let bob = try await Self.register(api, "bob", agent: "b")
            #expect(try await Self.status(api, token: laptop) == 200, "the laptop's session is cached now")
            let laptopId = try #require(try await Self.sessions(api, token: phone.token).first { !$0.current }?.id)

            let foreign = try await api.send(.DELETE, "/v1/sessions/\(laptopId)", token: bob.token)
            #expect(foreign.status == 404 && foreign.errorCode == "session_not_found", "someone else's session")
            #expect(try await Self.status(api, token: laptop) == 200)
            let unknown = try await api.send(.DELETE, "/v1/sessions/0123456789abcdef01234567", token: phone.token)
            #expect(unknown.status == 404)

            #expect(try await api.send(.DELETE, "/v1/sessions/\(laptopId)", token: phone.token).status == 204)
            let ended = try await api.send(.GET, "/v1/me", token: laptop)
            #expect(ended.status == 401 && ended.errorCode == "invalid_token")
            #expect(try await Self.status(api, token: phone.token) == 200, "the other session goes on")
            #expect(try await Self.sessions(api, token: phone.token).count == 1)
            #expect(
                try await api.send(.DELETE, "/v1/sessions/\(laptopId)", token: phone.token).status == 404,
                "already ended")
            #expect(
                try await api.send(.DELETE, "/v1/sessions/current", token: phone.token).status == 204,
                "logout still works")
        }
    }

    @Test func changingThePasswordEndsEveryOtherSessionAndKeepsThisOne() async throws {
        try await TestServer.run { api in
            let phone = try await Self.register(api, "alice", agent: "phone")
            let laptop = try await Self.login(api, "alice", agent: "laptop")
            let tablet = try await Self.login(api, "alice", agent: "tablet")
            #expect(try await Self.status(api, token: laptop) == 200)

            let short = try await api.send(
                .PUT, "/v1/me/password", token: phone.token,
                json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "short"))
            #expect(short.status == 422 && short.errorCode == "invalid_password")
            let changed = try await api.send(
                .PUT, "/v1/me/password", token: phone.token,
                json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple"))
            #expect(changed.status == 204)
            #expect(try await Self.status(api, token: phone.token) == 200, "the current session stays")
            #expect(try await Self.status(api, token: laptop) == 401)
            #expect(try await Self.status(api, token: tablet) == 401)
            #expect(try await Self.sessions(api, token: phone.token).map(\.userAgent) == ["phone"])
            #expect(try await api.login("alice", password: "correct horse").status == 401, "the old password is gone")
            #expect(try await api.login("alice", password: "battery staple").status == 201)
        }
    }

    @Test func aWrongCurrentPasswordIs401AndCountsTowardTheLoginThrottle() async throws {
        let configuration = TestServer.configuration { $0.loginFailureLimit = 3 }
        try await TestServer.run(configuration) { api in
            let alice = try await Self.register(api, "alice", agent: "a")
            let other = try await Self.login(api, "alice", agent: "b")
            let wrongPassword = ChangePasswordRequest(currentPassword: "not my password", newPassword: "battery staple")
            for _ in 0..<2 {
                let wrong = try await api.send(.PUT, "/v1/me/password", token: alice.token, json: wrongPassword)
                #expect(wrong.status == 401 && wrong.errorCode == "invalid_credentials")
                #expect(!wrong.text.contains("not my password"))
            }
            #expect(try await Self.status(api, token: alice.token) == 200, "a wrong password does not end the session")
            #expect(try await Self.status(api, token: other) == 200, "nor the others")
            #expect(try await api.login("alice", password: "wrong again").status == 401, "the third failure, by login")
            let throttled = try await api.login("alice")
            #expect(
                throttled.status == 429 && throttled.headers.first(name: "Retry-After") != nil,
                "the right password is refused now")
            let alsoThrottled = try await api.send(
                .PUT, "/v1/me/password", token: alice.token,
                json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple"))
            #expect(alsoThrottled.status == 429)
        }
    }

    @Test func deletingTheAccountLeavesTombstonesTellsPeersAndFreesTheName() async throws {
        try await TestServer.run { api in
            let alice = try await Self.register(api, "alice", agent: "a")
            let second = try await Self.login(api, "alice", agent: "b")
            let bob = try await api.register("bob")
            let carol = try await api.register("carol")
            let dave = try await api.register("dave")
            try await api.follow(bob, "alice")  // bob follows alice: alice may write to him
            try await api.follow(carol, "alice")
            try await api.follow(alice, "dave")
            #expect(try await api.sendMessage(alice, to: "bob", "a secret").status == 201)
            #expect(try await api.sendMessage(bob, to: "alice", "a reply").status == 201)
            #expect(
                try await api.send(.PUT, "/v1/tweets/t1", token: alice.token, json: TextBody(text: "hello")).status
                    == 201)
            // A block of the account goes with it.
            #expect(try await api.send(.PUT, "/v1/users/alice/block", token: dave.token).status < 300)

            let wrong = try await api.send(
                .DELETE, "/v1/me", token: alice.token, json: DeleteAccountRequest(password: "not it at all"))
            #expect(wrong.status == 401 && wrong.errorCode == "invalid_credentials")
            #expect(try await Self.status(api, token: alice.token) == 200, "nothing happened")

            #expect(
                try await api.send(
                    .DELETE, "/v1/me", token: alice.token, json: DeleteAccountRequest(password: "correct horse")
                ).status == 204)
            #expect(try await Self.status(api, token: alice.token) == 401)
            #expect(try await Self.status(api, token: second) == 401, "every session")
            #expect(try await api.login("alice").status == 401)
            #expect(try await api.send(.GET, "/v1/users/alice", token: bob.token).status == 404)

            // Peers are told, in their streams; someone unrelated is not.
            for peer in [bob, carol] {
                let deleted = try await api.allEvents(peer).compactMap { event -> UserDeletedNotice? in
                    if case .userDeleted(let notice) = event.payload { return notice }
                    return nil
                }
                #expect(deleted == [UserDeletedNotice(username: "alice")], "\(peer.user.username)")
            }
            let davesBlocks: Page<User> = try await api.send(.GET, "/v1/me/blocks", token: dave.token).decode()
            #expect(davesBlocks.items.isEmpty, "a block of the deleted account goes")
            let daveEvents = try await api.allEvents(dave)
            #expect(!daveEvents.contains { $0.type == EventType.userDeleted }, "dave only was followed by alice")

            // Alice's message is a tombstone for bob; his own message is untouched.
            let bobsMessages = try await api.allEvents(bob).compactMap { event -> Message? in
                if case .messageCreated(let message) = event.payload { return message }
                return nil
            }
            let placeholder = "deleted-\(alice.user.id)"
            let fromAlice = try #require(bobsMessages.first { $0.sender == placeholder })
            #expect(fromAlice.deleted && fromAlice.text.isEmpty)
            let fromBob = try #require(bobsMessages.first { $0.sender == "bob" })
            #expect(!fromBob.deleted && fromBob.text == "a reply")
            let rawEvents = try await api.send(.GET, "/v1/events?since=0", token: bob.token).text
            #expect(!rawEvents.contains("a secret"))

            // Bob keeps the conversation (API.md part 2), under deleted-ID: listed, readable,
            // his own message whole, alice's a tombstone, nothing sendable.
            let list = try await api.send(.GET, "/v1/conversations", token: bob.token).decode(Page<Conversation>.self)
            #expect(list.items.map(\.peer.username) == [placeholder])
            #expect(list.items.first?.peer.displayName == "Deleted account" && list.items.first?.peer.deleted == true)
            let history = try await api.messages(bob, with: placeholder)
            #expect(history.items.map(\.text) == ["", "a reply"] && history.items.map(\.deleted) == [true, false])
            #expect(history.items.map(\.sender) == [placeholder, "bob"])
            let refused = try await api.sendMessage(bob, to: placeholder, "are you there?")
            #expect(refused.status == 403 && refused.errorCode == "dm_not_allowed", "\(refused.text)")
            #expect(
                try await api.send(.POST, "/v1/conversations/\(placeholder)/typing", token: bob.token).status == 403)
            let read = try await api.send(
                .POST, "/v1/conversations/\(placeholder)/read", token: bob.token, json: ["upTo": history.items[0].id])
            #expect(read.status == 204)
            #expect(try await api.send(.GET, "/v1/users/\(placeholder)", token: bob.token).status == 404)
            #expect(try await api.send(.PUT, "/v1/users/\(placeholder)/follow", token: bob.token).status == 404)
            // Follows are gone and counted down.
            #expect(try await api.send(.GET, "/v1/me", token: bob.token).decode(User.self).followingCount == 0)
            #expect(try await api.send(.GET, "/v1/me", token: dave.token).decode(User.self).followersCount == 0)
            let timeline = try await api.send(.GET, "/v1/timeline", token: carol.token).decode(Page<Tweet>.self)
            #expect(timeline.items.isEmpty, "her tweets are gone")

            // The name is free again, for a new account that starts from nothing.
            let again = try await api.register("Alice")
            #expect(again.user.followersCount == 0)
            #expect(
                try await api.send(.GET, "/v1/conversations", token: again.token).decode(Page<Conversation>.self).items
                    .isEmpty)
            #expect(try await api.allEvents(again).isEmpty)
            let profile = try await api.send(.GET, "/v1/users/alice", token: bob.token).decode(User.self)
            #expect(profile.username == "Alice" && profile.followedByYou == false)
        }
    }

    @Test func accountSecurityCallsNeedAToken() async throws {
        try await TestServer.run { api in
            #expect(try await api.send(.GET, "/v1/sessions").status == 401)
            #expect(try await api.send(.DELETE, "/v1/sessions/abc").status == 401)
            #expect(
                try await api.send(
                    .PUT, "/v1/me/password", json: ChangePasswordRequest(currentPassword: "a", newPassword: "b")
                ).status == 401)
            #expect(try await api.send(.DELETE, "/v1/me", json: DeleteAccountRequest(password: "x")).status == 401)
            let alice = try await api.register("alice")
            #expect(try await api.send(.DELETE, "/v1/me", token: alice.token, raw: "{").status == 400)
            #expect(
                try await api.send(.PUT, "/v1/me/password", token: alice.token, raw: #"{"currentPassword":1}"#).status
                    == 400)
        }
    }
}
