import ChirpModels
import ChirpPush
import ChirpPushTesting
import Foundation
import Testing

@testable import ChirpServer

/// Web Push end to end (issue 54): a real server pushes to a test push service on loopback
/// (RFC 8030), which checks each push's VAPID token against the server's key and decrypts its
/// payload with the subscription's private key (RFC 8291).
@Suite("Push notifications")
struct PushNotificationTests {
    /// How long a push may take to arrive (or a subscription to go): a loaded CI machine running
    /// the whole suite takes far longer than the fraction of a second it takes alone.
    static let patience: Duration = .seconds(60)

    /// A test configuration whose subscriptions may reach the test push service.
    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        TestServer.configuration {
            $0.pushAllowedHosts = ["127.0.0.1"]
            $0.pushFirstRetryDelay = .milliseconds(200)
            adjust(&$0)
        }
    }

    /// Subscribes `viewer` with a new subscription of `service`, bound to the server's key.
    static func subscribe(
        _ api: APIHarness, _ viewer: Session, at service: TestPushService, id: String = "browser", preview: Bool = true
    ) async throws -> TestPushSubscription {
        let key: PushKeyResponse = try await api.send(.GET, "/v1/push/key").decode()
        let subscription = await service.subscribe(applicationServerKey: key.publicKey)
        let reply = try await api.send(
            .PUT, "/v1/me/push-subscriptions/\(id)", token: viewer.token,
            json: PushSubscriptionRequest(
                endpoint: subscription.endpoint,
                keys: .init(p256dh: subscription.p256dh, auth: subscription.auth), preview: preview))
        try #require(reply.status == 201, "subscribe: \(reply.status) \(reply.text)")
        return subscription
    }

    /// Two users who follow each other.
    static func friends(_ api: APIHarness, _ a: String, _ b: String) async throws -> (Session, Session) {
        let first = try await api.register(a)
        let second = try await api.register(b)
        try await api.follow(first, b)
        try await api.follow(second, a)
        return (first, second)
    }

    @Test func aDirectMessageArrivesEncryptedAndSignedWithItsTextWhenPreviewsAreOn() async throws {
        let service = try await TestPushService.start()
        defer { Task { await service.stop() } }
        try await TestServer.run(Self.configuration()) { api in
            let (ann, bob) = try await Self.friends(api, "ann", "bob")
            let subscription = try await Self.subscribe(api, bob, at: service)
            let sent = try await api.sendMessage(ann, to: "bob", "hello bob")
            #expect(sent.status == 201)
            let push = try #require(try await service.waitForPushes(for: subscription, timeout: Self.patience).first)
            let notification: PushNotification = try push.decoded()
            let message: Message = try sent.decode()
            #expect(
                notification
                    == PushNotification(
                        conversation: .direct("ann"), sender: "ann", messageId: message.id, text: "hello bob"))
            #expect(push.timeToLive == 86_400 && push.urgency == "high")
            #expect(push.topic?.isEmpty == false)
            #expect(await service.refusals().isEmpty, "every push carried a valid VAPID token")
        }
    }

    @Test func withPreviewsOffAPushNamesOnlyTheSenderAndTheConversation() async throws {
        let service = try await TestPushService.start()
        defer { Task { await service.stop() } }
        try await TestServer.run(Self.configuration()) { api in
            let (ann, bob) = try await Self.friends(api, "ann", "bob")
            let subscription = try await Self.subscribe(api, bob, at: service, preview: false)
            _ = try await api.sendMessage(ann, to: "bob", "a secret")
            let push = try #require(try await service.waitForPushes(for: subscription, timeout: Self.patience).first)
            let object = try push.jsonObject()
            #expect(object["text"] is NSNull, "text is null, not left out")
            #expect(!String(decoding: push.payload, as: UTF8.self).contains("secret"))
            #expect((try push.decoded() as PushNotification).sender == "ann")
        }
    }

    @Test func aMutedConversationRaisesNoPushAndAGroupMessageReachesTheOtherMembers() async throws {
        let service = try await TestPushService.start()
        defer { Task { await service.stop() } }
        try await TestServer.run(Self.configuration()) { api in
            let (ann, bob) = try await Self.friends(api, "ann", "bob")
            let cat = try await api.register("cat")
            try await api.follow(cat, "ann")
            try await api.follow(ann, "cat")
            let bobs = try await Self.subscribe(api, bob, at: service)
            let cats = try await Self.subscribe(api, cat, at: service)
            let anns = try await Self.subscribe(api, ann, at: service)
            // A conversation is muted once it exists.
            _ = try await api.sendMessage(ann, to: "bob", "before the mute")
            _ = try await service.waitForPushes(for: bobs, timeout: Self.patience)
            #expect(try await api.send(.PUT, "/v1/conversations/ann/mute", token: bob.token).status == 204)
            _ = try await api.sendMessage(ann, to: "bob", "muted")
            _ = try await api.sendMessage(ann, to: "cat", "not muted")
            _ = try await service.waitForPushes(for: cats, timeout: Self.patience)
            let group = try await api.group(ann, ["bob", "cat"])
            #expect(try await api.sendToGroup(ann, group.id, "to the group").status == 201)
            let groupPushes = try await service.waitForPushes(2, for: cats, timeout: Self.patience)
            let groupPush: PushNotification = try groupPushes[1].decoded()
            #expect(groupPush.conversation == .group(group.id) && groupPush.text == "to the group")
            let bobsPushes = try await service.waitForPushes(2, for: bobs, timeout: Self.patience)
            let texts = try bobsPushes.map { (try $0.decoded() as PushNotification).text }
            #expect(texts == ["before the mute", "to the group"], "nothing for the muted conversation")
            #expect(await service.pushes(for: anns).isEmpty, "a sender is never pushed their own message")
        }
    }

    @Test func aGoneSubscriptionIsDeletedAndAnEndedSessionTakesItsSubscriptionsWithIt() async throws {
        let service = try await TestPushService.start()
        defer { Task { await service.stop() } }
        try await TestServer.run(Self.configuration()) { api in
            let (ann, bob) = try await Self.friends(api, "ann", "bob")
            let gone = try await Self.subscribe(api, bob, at: service, id: "old")
            await service.answer(.gone, for: gone)
            _ = try await api.sendMessage(ann, to: "bob", "anyone there?")
            let deadline = ContinuousClock.now + Self.patience
            var left: [PushSubscriptionInfo] = [
                PushSubscriptionInfo(id: "old", endpoint: "", preview: true, createdAt: .now())
            ]
            while !left.isEmpty, ContinuousClock.now < deadline {
                left = try await api.send(.GET, "/v1/me/push-subscriptions", token: bob.token).decode()
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(left.isEmpty, "410 ended the subscription")

            // A second session's subscription ends when that session logs out.
            let login = try await api.login("bob")
            let other: AuthResponse = try login.decode()
            let second = Session(user: bob.user, token: other.token)
            _ = try await Self.subscribe(api, second, at: service, id: "laptop")
            #expect(try await api.send(.DELETE, "/v1/sessions/current", token: second.token).status == 204)
            let after: [PushSubscriptionInfo] = try await api.send(
                .GET, "/v1/me/push-subscriptions", token: bob.token
            ).decode()
            #expect(after.isEmpty)
        }
    }

    @Test func badSubscriptionsAreRefusedAndAnAccountHasAtMostTen() async throws {
        try await TestServer.run(Self.configuration()) { api in
            let bob = try await api.register("bob")
            let keys = PushSubscriptionRequest.Keys(
                p256dh: P256KeyFixture.publicKey, auth: Data(repeating: 7, count: 16).base64URLEncodedString())
            func put(_ id: String, _ endpoint: String, keys: PushSubscriptionRequest.Keys = keys) async throws -> Reply
            {
                try await api.send(
                    .PUT, "/v1/me/push-subscriptions/\(id)", token: bob.token,
                    json: PushSubscriptionRequest(endpoint: endpoint, keys: keys, preview: nil))
            }
            for endpoint in [
                "http://push.example.com/x", "https://localhost/x", "https://10.1.2.3/x", "https://[::1]/x",
                "https://192.168.0.9/x", "ftp://push.example.com/x", "not a url", "https://0x7f000001/x",
                "https://2130706433/x", "https://0x7f.0.0.1/x", "https://017.0.0.1/x", "https://localhost./x",
            ] {
                let reply = try await put("a", endpoint)
                #expect(reply.status == 422 && reply.errorCode == APIErrorCode.invalidEndpoint, "\(endpoint)")
            }
            let badKeys = try await put(
                "a", "https://push.example.com/x", keys: .init(p256dh: "AAAA", auth: keys.auth))
            #expect(badKeys.status == 422 && badKeys.errorCode == APIErrorCode.invalidParameter)
            #expect(try await put("bad id!", "https://push.example.com/x").status == 400)
            #expect(try await api.send(.PUT, "/v1/me/push-subscriptions/a", raw: "{}").status == 401)
            for n in 0..<10 {
                #expect(try await put("s\(n)", "https://push.example.com/\(n)").status == 201)
            }
            #expect(try await put("s0", "https://push.example.com/again").status == 200, "the same id is replaced")
            let eleventh = try await put("s10", "https://push.example.com/10")
            #expect(eleventh.status == 409 && eleventh.errorCode == APIErrorCode.tooManySubscriptions)
            #expect(try await api.send(.DELETE, "/v1/me/push-subscriptions/s0", token: bob.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/me/push-subscriptions/s0", token: bob.token).status == 204)
            #expect(try await put("s10", "https://push.example.com/10").status == 201)
            let list: [PushSubscriptionInfo] = try await api.send(
                .GET, "/v1/me/push-subscriptions", token: bob.token
            ).decode()
            #expect(list.count == 10 && !list.contains { $0.id == "s0" } && list.allSatisfy { !$0.preview })
        }
    }

    @Test func aPushThePushServiceRefusedIsSentAfterARestart() async throws {
        let service = try await TestPushService.start()
        defer { Task { await service.stop() } }
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = Self.configuration {
            $0.dataDirectory = directory
            $0.postgres = nil
        }
        let subscription = try await TestServer.run(
            services: ServerServices(
                configuration: configuration, storage: try SQLiteStorage(url: configuration.databaseURL))
        ) { api in
            let (ann, bob) = try await Self.friends(api, "ann", "bob")
            let subscription = try await Self.subscribe(api, bob, at: service)
            await service.answer(.status(500), for: subscription)
            _ = try await api.sendMessage(ann, to: "bob", "after the restart")
            let deadline = ContinuousClock.now + Self.patience
            while await service.attempts(for: subscription) < 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await service.attempts(for: subscription) >= 1)
            return subscription
        }
        await service.answer(.accept, for: subscription)
        try await TestServer.run(
            services: ServerServices(
                configuration: configuration, storage: try SQLiteStorage(url: configuration.databaseURL))
        ) { _ in
            let push: PushNotification = try #require(
                try await service.waitForPushes(for: subscription, timeout: Self.patience).first
            )
            .decoded()
            #expect(push.text == "after the restart")
        }
    }
}

/// A valid P-256 public key (uncompressed, base64url) for requests that never reach a push service.
enum P256KeyFixture {
    static let publicKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
}
