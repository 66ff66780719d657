import ChirpPush
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A push service for tests (RFC 8030) on 127.0.0.1: it makes subscriptions, checks each push as
/// a real one does (VAPID, headers, `aes128gcm`), records the decrypted pushes for tests to
/// await, and answers a subscription's pushes as told: 201, another status, or never.
public final class TestPushService: Sendable {
    /// `http://127.0.0.1:PORT`: the `aud` a VAPID token for it names.
    public let origin: String
    private let state: TestPushServiceState
    private let services: ServiceGroup
    private let server: Task<Void, any Error>

    private init(origin: String, state: TestPushServiceState, services: ServiceGroup, server: Task<Void, any Error>) {
        self.origin = origin
        self.state = state
        self.services = services
        self.server = server
    }

    /// A service listening on a free port of 127.0.0.1.
    public static func start() async throws -> TestPushService {
        let state = TestPushServiceState()
        let router = Router()
        router.post("push/:id") { request, context -> Response in
            try await respond(to: request, id: context.parameters.require("id"), state: state)
        }
        var logger = Logger(label: "chirp.test-push-service")
        logger.logLevel = .warning
        let (ports, portsContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portsContinuation.yield(channel.localAddress?.port ?? 0)
                portsContinuation.finish()
            },
            logger: logger)
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [], logger: logger))
        let server = Task {
            defer { portsContinuation.finish() }
            try await services.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            server.cancel()
            _ = await server.result
            throw TestPushServiceError.didNotStart
        }
        let origin = "http://127.0.0.1:\(port)"
        await state.setOrigin(origin)
        return TestPushService(origin: origin, state: state, services: services, server: server)
    }

    /// A new subscription, bound to the VAPID public key `applicationServerKey` when one is given
    /// (a push whose `k` differs is refused with 403).
    public func subscribe(applicationServerKey: String? = nil) async -> TestPushSubscription {
        await state.subscribe(applicationServerKey: applicationServerKey)
    }

    /// From now on, answers the subscription's pushes with `answer`.
    public func answer(_ answer: TestPushAnswer, for subscription: TestPushSubscription) async {
        await state.setAnswer(answer, for: subscription.id)
    }

    /// The pushes taken so far for `subscription`, oldest first.
    public func pushes(for subscription: TestPushSubscription) async -> [ReceivedPush] {
        await state.received.filter { $0.subscriptionID == subscription.id }
    }

    /// How many pushes to `subscription` were answered so far, whatever the answer (a retry
    /// counts again).
    public func attempts(for subscription: TestPushSubscription) async -> Int {
        await state.attempts[subscription.id] ?? 0
    }

    /// How many pushes were answered so far, for every subscription together.
    public func totalAttempts() async -> Int {
        await state.attempts.values.reduce(0, +)
    }

    /// Why requests were refused so far (a bad VAPID token, a missing header...).
    public func refusals() async -> [String] {
        await state.refusals
    }

    /// Waits until `subscription` has `count` pushes, and returns them; throws after `timeout`.
    public func waitForPushes(
        _ count: Int = 1, for subscription: TestPushSubscription, timeout: Duration = .seconds(60)
    ) async throws -> [ReceivedPush] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let pushes = await pushes(for: subscription)
            if pushes.count >= count { return pushes }
            guard ContinuousClock.now < deadline else {
                throw TestPushServiceError.noPush(subscriptionID: subscription.id, received: pushes.count)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Answers the requests it holds (503) and shuts down gracefully.
    public func stop() async {
        await state.stop()
        await services.triggerGracefulShutdown()
        _ = await server.result
    }

    private static func respond(to request: Request, id: String, state: TestPushServiceState) async throws -> Response {
        guard let subscription = await state.subscription(id) else {
            return Response(status: .notFound)
        }
        let answer = await state.answer(for: id)
        if answer == .hang {
            await state.hold()
            return Response(status: .serviceUnavailable)
        }
        let body = try await request.body.collect(upTo: 64 * 1024)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let push: ReceivedPush
        do {
            push = try await PushServiceCheck(origin: await state.origin, subscription: subscription)
                .check(headers: headers, body: Data(body.readableBytesView))
        } catch {
            await state.refuse("\(id): \(error.status) \(error.reason)")
            return Response(status: .init(code: error.status))
        }
        switch answer {
        case .accept:
            await state.record(push)
            return Response(status: .created, headers: [.location: "/message/\(id)-\(UUID().uuidString)"])
        case .status(let status, let retryAfter):
            var fields: HTTPFields = [:]
            if let retryAfter { fields[.retryAfter] = retryAfter }
            return Response(status: .init(code: status), headers: fields)
        case .hang:
            return Response(status: .serviceUnavailable)
        }
    }
}

/// Why the test push service failed a test.
public enum TestPushServiceError: Error, Equatable {
    /// The server did not start listening.
    case didNotStart
    /// The awaited pushes did not arrive in time.
    case noPush(subscriptionID: String, received: Int)
}
