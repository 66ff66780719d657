import AsyncHTTPClient
import ChirpPush
import ChirpPushTesting
import Foundation
import Testing

/// One push, end to end, against the test push service: what arrives, and how its answers are read.
@Suite("Push deliverer")
struct PushDelivererTests {
    let key = VAPIDKey.generate()
    let payload = Data(
        #"{"type":"message","conversation":{"kind":"direct","peer":"bob"},"sender":"alice","messageId":"m1","text":"hi"}"#
            .utf8)

    /// A deliverer; by default with a timeout far above what a push takes, so that a loaded
    /// machine does not turn an answer into a timeout (the timeout's own tests set theirs).
    func deliverer(timeout: Duration = .seconds(60)) throws -> PushDeliverer {
        PushDeliverer(signer: try VAPIDSigner(key: key, subject: "mailto:ops@chirp.example"), timeout: timeout)
    }

    func message(to subscription: TestPushSubscription) throws -> PushMessage {
        try PushMessage(
            endpoint: subscription.endpointURL,
            keys: PushSubscriptionKeys(p256dh: subscription.p256dh, auth: subscription.auth),
            payload: payload, topic: PushTopic(conversation: "d:1:2"))
    }

    /// Runs `body` with a started service, and stops it after.
    func withService(_ body: (TestPushService) async throws -> Void) async throws {
        let service = try await TestPushService.start()
        do {
            try await body(service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    @Test func aPushArrivesDecryptedWithItsHeaders() async throws {
        try await withService { service in
            let subscription = await service.subscribe(applicationServerKey: key.publicKeyBase64URL)

            let outcome = try await deliverer().deliver(message(to: subscription))

            #expect(outcome == .delivered)
            let pushes = try await service.waitForPushes(for: subscription)
            #expect(pushes.count == 1)
            #expect(pushes[0].payload == payload)
            #expect(pushes[0].timeToLive == 86_400)
            #expect(pushes[0].urgency == "high")
            #expect(pushes[0].topic == PushTopic(conversation: "d:1:2").value)
            #expect(try pushes[0].jsonObject()["sender"] as? String == "alice")
            #expect(await service.refusals().isEmpty)
        }
    }

    @Test func gone410EndsTheSubscription() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            await service.answer(.gone, for: subscription)
            let outcome = try await deliverer().deliver(message(to: subscription))

            #expect(outcome == .gone(status: 410))
        }
    }

    @Test func anUnknownSubscriptionIsGone404() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            let unknown = try PushMessage(
                endpoint: URL(string: "\(service.origin)/push/nobody")!, keys: subscription.keys, payload: payload,
                topic: nil)

            let outcome = try await deliverer().deliver(unknown)

            #expect(outcome == .gone(status: 404))
        }
    }

    @Test func tooManyRequests429IsRetriedAfterWhatItSays() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            await service.answer(.status(429, retryAfter: "120"), for: subscription)

            let outcome = try await deliverer().deliver(message(to: subscription))

            guard case .retry(let after, _) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(after == .seconds(120))
        }
    }

    @Test func aServerErrorIsRetried() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            await service.answer(.status(500), for: subscription)
            let outcome = try await deliverer().deliver(message(to: subscription))

            #expect(outcome == .retry(after: nil, reason: "status 500"))
        }
    }

    @Test func aPushServiceThatNeverAnswersTimesOutAsARetryInBoundedTime() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            await service.answer(.hang, for: subscription)
            let deliverer = try deliverer(timeout: .milliseconds(500))
            let message = try message(to: subscription)

            let clock = ContinuousClock()
            var outcome: PushOutcome?
            let took = await clock.measure { outcome = await deliverer.deliver(message) }

            #expect(outcome == .retry(after: nil, reason: "timeout"))
            // Bounded by the timeout, not by the push service, which holds it until it stops
            // (the upper bound generous, for a loaded machine).
            #expect(took >= .milliseconds(450) && took < .seconds(20))
        }
    }

    @Test func aPushServiceThatIsDownIsRetried() async throws {
        let service = try await TestPushService.start()
        let subscription = await service.subscribe()
        await service.stop()

        // The client tries to connect again until the timeout: a push service that is down costs that.
        let outcome = try await deliverer(timeout: .milliseconds(500)).deliver(message(to: subscription))

        guard case .retry(nil, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
    }

    @Test func aSubscriptionBoundToAnotherKeyIsRejected403() async throws {
        try await withService { service in
            let subscription = await service.subscribe(applicationServerKey: VAPIDKey.generate().publicKeyBase64URL)

            let outcome = try await deliverer().deliver(message(to: subscription))

            guard case .rejected(status: 403, _) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(await service.pushes(for: subscription).isEmpty)
        }
    }

    @Test func theServiceRefusesATokenForAnotherOriginOrNoneAtAll() async throws {
        try await withService { service in
            let subscription = await service.subscribe()
            let elsewhere = try await PushRequest(
                message: PushMessage(
                    endpoint: URL(string: "http://127.0.0.2:1/push/x")!, keys: subscription.keys, payload: payload,
                    topic: nil),
                signer: VAPIDSigner(key: key, subject: "mailto:ops@chirp.example"))

            #expect(try await post(elsewhere.body, headers: elsewhere.headers, to: subscription.endpoint) == 401)
            var unsigned = elsewhere.headers
            unsigned["Authorization"] = nil
            #expect(try await post(elsewhere.body, headers: unsigned, to: subscription.endpoint) == 401)
            #expect(await service.refusals().count == 2)
            #expect(await service.pushes(for: subscription).isEmpty)
        }
    }

    /// The status of a POST made by hand.
    func post(_ body: Data, headers: [String: String], to endpoint: String) async throws -> Int {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(body)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        return Int(response.status.code)
    }
}
