import ChirpModels
import Foundation
import NIOHTTP1
import Testing

/// Message requests (API.md part 3) over real sockets, on SQLite (and on PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`).
@Suite("Message requests")
struct MessageRequestTests {
    static func settings(_ api: APIHarness, _ viewer: Session, _ update: SettingsUpdate? = nil) async throws -> Reply {
        guard let update else { return try await api.send(.GET, "/v1/me/settings", token: viewer.token) }
        return try await api.send(.PATCH, "/v1/me/settings", token: viewer.token, json: update)
    }

    static func list(_ api: APIHarness, _ viewer: Session, requests: Bool = false) async throws -> [Conversation] {
        let reply = try await api.send(
            .GET, "/v1/conversations\(requests ? "?requests=true" : "")", token: viewer.token)
        try #require(reply.status == 200, "list: \(reply.status) \(reply.text)")
        return try reply.decode(Page<Conversation>.self).items
    }

    static func answer(_ api: APIHarness, _ viewer: Session, _ peer: String, accept: Bool) async throws -> Reply {
        accept
            ? try await api.send(.POST, "/v1/conversations/\(peer)/accept", token: viewer.token)
            : try await api.send(.DELETE, "/v1/conversations/\(peer)", token: viewer.token)
    }

    static func updates(_ api: APIHarness, _ viewer: Session) async throws -> [Conversation] {
        try await api.allEvents(viewer).compactMap {
            if case .conversationUpdated(let conversation) = $0.payload { return conversation }
            return nil
        }
    }

    /// `ann` takes requests from everyone; `bob` (whom she does not follow) has sent her one.
    static func request(_ api: APIHarness) async throws -> (ann: Session, bob: Session) {
        let ann = try await api.register("ann")
        let bob = try await api.register("bob")
        #expect(try await settings(api, ann, SettingsUpdate(messageRequests: "everyone")).status == 200)
        let sent = try await api.sendMessage(bob, to: "ann", "hello, stranger")
        try #require(sent.status == 201, "request: \(sent.status) \(sent.text)")
        return (ann, bob)
    }

    @Test func settingsDefaultToFollowersAndChangeWithPatch() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            #expect(
                try await Self.settings(api, ann).decode(UserSettings.self) == UserSettings(messageRequests: .followers)
            )
            let changed = try await Self.settings(api, ann, SettingsUpdate(messageRequests: "everyone"))
            #expect(try changed.status == 200 && changed.decode(UserSettings.self).messageRequests == .everyone)
            #expect(try await Self.settings(api, ann).decode(UserSettings.self).messageRequests == .everyone)
            let unchanged = try await Self.settings(api, ann, SettingsUpdate())
            #expect(try unchanged.status == 200 && unchanged.decode(UserSettings.self).messageRequests == .everyone)

            let bad = try await Self.settings(api, ann, SettingsUpdate(messageRequests: "nobody"))
            #expect(bad.status == 422 && bad.errorCode == "invalid_setting")
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: bad.body).error.field == "messageRequests")
            for raw in [#"{"messageRequests": 1}"#, #"{"messageRequests": null}"#, "[]"] {
                let wrongType = try await api.send(.PATCH, "/v1/me/settings", token: ann.token, raw: raw)
                #expect(wrongType.status == 400, "\(raw): \(wrongType.status)")
            }
            #expect(
                try await Self.settings(api, ann).decode(UserSettings.self).messageRequests == .everyone,
                "nothing changed")
            #expect(try await api.send(.GET, "/v1/me/settings").status == 401)
        }
    }

    @Test func withFollowersAStrangersMessageIsRefusedAsInPartOne() async throws {
        try await TestServer.run { api in
            _ = try await api.register("ann")
            let bob = try await api.register("bob")
            let refused = try await api.sendMessage(bob, to: "ann", "hello")
            #expect(refused.status == 403 && refused.errorCode == "dm_not_allowed")
        }
    }

    @Test func withEveryoneAStrangersMessageIsARequestListedApart() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            #expect(try await Self.list(api, ann).isEmpty, "requests are left out of the list")
            let requests = try await Self.list(api, ann, requests: true)
            #expect(requests.map(\.peer.username) == ["bob"])
            #expect(requests.allSatisfy { $0.request && $0.kind == "direct" && $0.unreadCount == 1 })
            let bobs = try await Self.list(api, bob)
            #expect(
                bobs.map(\.peer.username) == ["ann"] && bobs.allSatisfy { !$0.request },
                "the sender sees an ordinary conversation")
            #expect(try await Self.list(api, bob, requests: true).isEmpty)

            #expect(
                try await api.sendMessage(bob, to: "ann", "are you there?").status == 201,
                "a request takes more messages")
            #expect(try await Self.list(api, ann, requests: true).map(\.unreadCount) == [2])
            #expect(
                try await api.messages(ann, with: "bob").items.map(\.text) == ["hello, stranger", "are you there?"])
            #expect(try await api.send(.GET, "/v1/conversations?requests=maybe", token: ann.token).status == 400)
        }
    }

    @Test func blocksAndDeletedAccountsStillRefuse() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            #expect(try await Self.settings(api, ann, SettingsUpdate(messageRequests: "everyone")).status == 200)
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: ann.token).status == 204)
            let blocked = try await api.sendMessage(bob, to: "ann", "hello")
            #expect(blocked.status == 403 && blocked.errorCode == "dm_not_allowed")
            let deleted = try await api.sendMessage(bob, to: "deleted-\(ann.user.id)", "hello")
            #expect(deleted.status == 403 && deleted.errorCode == "dm_not_allowed")
        }
    }

    @Test func acceptingMakesItAnOrdinaryConversation() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            #expect(try await Self.answer(api, ann, "BOB", accept: true).status == 204)
            let listed = try await Self.list(api, ann)
            #expect(listed.map(\.peer.username) == ["bob"] && listed.allSatisfy { !$0.request })
            #expect(try await Self.list(api, ann, requests: true).isEmpty)
            let updates = try await Self.updates(api, ann)
            #expect(updates.map(\.peer.username) == ["bob"] && updates.allSatisfy { !$0.request && !$0.declined })
            #expect(try await Self.updates(api, bob).isEmpty, "only the viewer's streams are told")

            #expect(try await Self.settings(api, ann, SettingsUpdate(messageRequests: "followers")).status == 200)
            #expect(try await api.sendMessage(bob, to: "ann", "thanks").status == 201, "accepted stays accepted")
            let again = try await Self.answer(api, ann, "bob", accept: true)
            #expect(again.status == 404 && again.errorCode == "request_not_found")
        }
    }

    @Test func decliningRemovesItAndALaterMessageStartsANewRequest() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            #expect(try await Self.answer(api, ann, "bob", accept: false).status == 204)
            #expect(try await Self.list(api, ann).isEmpty)
            #expect(try await Self.list(api, ann, requests: true).isEmpty)
            let updates = try await Self.updates(api, ann)
            #expect(updates.map(\.peer.username) == ["bob"] && updates.allSatisfy { $0.declined && !$0.request })
            #expect(try await Self.list(api, bob).map(\.peer.username) == ["ann"], "the sender keeps the conversation")
            let again = try await Self.answer(api, ann, "bob", accept: false)
            #expect(again.status == 404 && again.errorCode == "request_not_found")
            let refused = try await api.sendMessage(ann, to: "bob", "hm")
            #expect(refused.status == 403, "declining gives up answering: bob takes followers only")

            #expect(try await api.sendMessage(bob, to: "ann", "one more try").status == 201)
            let renewed = try await Self.list(api, ann, requests: true)
            #expect(renewed.map(\.peer.username) == ["bob"] && renewed.map(\.unreadCount) == [1])
            #expect(renewed.first?.lastMessage?.text == "one more try")
        }
    }

    @Test func answersNeedAPendingRequestFromThatUser() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            let cat = try await api.register("cat")
            try await api.follow(ann, "cat")
            #expect(try await api.sendMessage(cat, to: "ann", "hi").status == 201)
            for accept in [true, false] {
                let ordinary = try await Self.answer(api, ann, "cat", accept: accept)
                #expect(ordinary.status == 404 && ordinary.errorCode == "request_not_found")
                let sender = try await Self.answer(api, bob, "ann", accept: accept)
                #expect(sender.status == 404 && sender.errorCode == "request_not_found", "only the recipient answers")
                let ghost = try await Self.answer(api, ann, "ghost", accept: accept)
                #expect(ghost.status == 404 && ghost.errorCode == "user_not_found")
                let anonymous =
                    accept
                    ? try await api.send(.POST, "/v1/conversations/bob/accept")
                    : try await api.send(.DELETE, "/v1/conversations/bob")
                #expect(anonymous.status == 401)
            }
            #expect(try await Self.list(api, ann, requests: true).map(\.peer.username) == ["bob"])
        }
    }

    @Test func replyingAcceptsTheRequest() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            #expect(try await api.sendMessage(ann, to: "bob", "hi bob").status == 201)
            #expect(try await Self.list(api, ann, requests: true).isEmpty)
            let listed = try await Self.list(api, ann)
            #expect(listed.map(\.peer.username) == ["bob"] && listed.allSatisfy { !$0.request })
            #expect(try await api.sendMessage(bob, to: "ann", "glad you answered").status == 201)
            let accept = try await Self.answer(api, ann, "bob", accept: true)
            #expect(accept.status == 404 && accept.errorCode == "request_not_found")
        }
    }

    /// Until the recipient accepts, reading sends no `message.read` and the sender sees the
    /// message unread; after accepting, reading again tells the sender.
    @Test func readsReachTheSenderOnlyAfterAccepting() async throws {
        try await TestServer.run { api in
            let (ann, bob) = try await Self.request(api)
            let message = try #require(try await api.messages(ann, with: "bob").items.first)
            let read = try await api.send(
                .POST, "/v1/conversations/bob/read", token: ann.token, json: MarkReadRequest(upTo: message.id))
            #expect(read.status == 204)
            #expect(
                try await Self.list(api, ann, requests: true).map(\.unreadCount) == [0], "the recipient's count drops")
            #expect(try await api.messages(bob, with: "ann").items.map(\.readByRecipient) == [false])
            func receipts() async throws -> Int {
                try await api.allEvents(bob).filter { if case .messageRead = $0.payload { true } else { false } }.count
            }
            #expect(try await receipts() == 0)
            #expect(try await api.send(.POST, "/v1/conversations/bob/typing", token: ann.token).status == 204)

            #expect(try await Self.answer(api, ann, "bob", accept: true).status == 204)
            let again = try await api.send(
                .POST, "/v1/conversations/bob/read", token: ann.token, json: MarkReadRequest(upTo: message.id))
            #expect(again.status == 204)
            #expect(try await receipts() == 1)
            #expect(try await api.messages(bob, with: "ann").items.map(\.readByRecipient) == [true])
        }
    }

    /// Deleting an account removes its requests both ways (a pending one it sent leaves the
    /// recipient's requests) and its setting, in the deletion's transaction.
    @Test func accountDeletionRemovesRequestsAndSettings() async throws {
        let storage = StoredDataInspector()
        try await storage.withServer { api in
            let (ann, bob) = try await Self.request(api)
            let cat = try await api.register("cat")
            #expect(try await Self.settings(api, bob, SettingsUpdate(messageRequests: "everyone")).status == 200)
            #expect(try await api.sendMessage(cat, to: "bob", "hi bob").status == 201)
            #expect(try await Self.rows(storage) == 2)
            let deletion = try await api.send(
                .DELETE, "/v1/me", token: bob.token, json: DeleteAccountRequest(password: "correct horse"))
            #expect(deletion.status == 204)
            #expect(try await Self.rows(storage) == 0)
            #expect(try await Self.list(api, ann, requests: true).isEmpty)
            #expect(try await Self.list(api, ann).isEmpty, "a request from a deleted account goes as a decline would")
            #expect(
                try await Self.list(api, cat).map(\.peer.username) == ["deleted-\(bob.user.id)"],
                "its recipients keep their own")
            let deleted = try await storage.dump(only: "users").split(separator: "\n").filter {
                ($0.hasPrefix("[") || $0.hasPrefix("{")) && $0.contains("\"deleted-\(bob.user.id)\"")
            }
            #expect(deleted.count == 1)
            #expect(
                deleted.allSatisfy {
                    $0.contains("takes_message_requests:0") || $0.contains("\"takes_message_requests\":false")
                },
                "the setting is back to the default")
        }
    }

    static func rows(_ storage: StoredDataInspector) async throws -> Int {
        try await storage.dump(only: "message_requests").split(separator: "\n").count
    }
}
