import ChirpNetworking
import Foundation
import Testing

@Suite("APIClient")
struct APIClientTests {
    @Test func buildsRequestsAndDecodesReplies() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/base/v1/users/alice", status: 200, json: aliceJSON)
        mock.stub(.post, "/base/v1/users", status: 201, json: #"{"name":"bob","age":3}"#)
        let client = makeClient(mock, credentials: { ["Authorization": "Bearer t0k"] })
        #expect(try await client.send(GetProfile()) == Profile(name: "alice", age: 30))
        #expect(try await client.send(CreateProfile()) == Profile(name: "bob", age: 3))
        let get = mock.requests[0]
        #expect(get.url.absoluteString == "http://api.test/base/v1/users/alice?fields=all&q=a%20b%26c")
        #expect(get.headers["Authorization"] == "Bearer t0k" && get.headers["Accept"] == "application/json")
        #expect(get.body == nil && get.timeout == .seconds(5))
        let post = mock.requests[1]
        #expect(post.method == .post && post.headers["Content-Type"] == "application/json")
        #expect(try JSONDecoder().decode(Profile.self, from: post.body ?? Data()) == Profile(name: "bob", age: 3))
    }

    @Test func endpointHeadersWinAndEmptyRepliesDecode() async throws {
        let mock = MockTransport()
        mock.stub(.put, "/v1/things/1", status: 204)
        let client = makeClient(mock, base: "http://api.test/")
        #expect(try await client.send(PutThing()) == EmptyResponse())
        #expect(mock.requests[0].headers["Accept"] == "text/plain" && mock.requests[0].headers["X-Custom"] == "yes")
        #expect(mock.requests[0].url.absoluteString == "http://api.test/v1/things/1")
    }

    @Test func errorEnvelopesBecomeServerErrors() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/base/v1/users/alice", status: 403,
            json: #"{"error":{"code":"dm_not_allowed","message":"No.","field":"x"}}"#)
        mock.stub(.get, "/base/v1/users/bob", status: 418, json: "teapot")
        mock.stub(.get, "/base/v1/users/carol", status: 200, json: #"{"name":"carol"}"#)
        mock.stub(.get, "/base/v1/users/dave", status: 200, json: "not json")
        let client = makeClient(mock)
        await #expect(throws: NetworkError.server(status: 403, code: "dm_not_allowed", message: "No.", field: "x")) {
            try await client.send(GetProfile(name: "alice"))
        }
        await #expect(throws: NetworkError.http(status: 418, body: "teapot")) {
            try await client.send(GetProfile(name: "bob"))
        }
        await #expect(throws: NetworkError.decoding(path: "age", reason: "missing")) {
            try await client.send(GetProfile(name: "carol"))
        }
        do {
            _ = try await client.send(GetProfile(name: "dave"))
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding = error else {
                Issue.record("got \(error)")
                return
            }
        }
        await #expect(
            throws: NetworkError.server(
                status: 404, code: "not_stubbed", message: "no stub for GET /base/v1/users/x", field: nil)
        ) {
            try await client.sendForResponse(GetProfile(name: "x"))
        }
    }

    @Test func idempotentCallsRetryWithBackoffAndRetryAfter() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/base/v1/users/alice",
            answers: [
                .reply(TransportResponse(status: 503, headers: ["Retry-After": "2"])),
                .failure(.transport("reset")),
                .reply(TransportResponse(status: 429, headers: ["retry-after": "0"])),
                .reply(TransportResponse(status: 200, body: Data(aliceJSON.utf8))),
            ])
        let sleeper = SleepRecorder()
        let client = makeClient(mock, sleeper: sleeper, random: 0.5)
        #expect(try await client.send(GetProfile()).name == "alice")
        #expect(mock.requests.count == 4)
        // 200 ms base, half jitter at random 0.5 → 150 ms, 300 ms, 600 ms; Retry-After: 2 wins first.
        #expect(sleeper.recorded == [.seconds(2), .milliseconds(300), .milliseconds(600)])
    }

    @Test func aRateLimitOfMinutesIsNotWaitedForButShownAtOnce() async throws {
        let mock = MockTransport()
        let limited =
            #"{"error":{"code":"rate_limited","message":"You have posted too many tweets; try again in 40 minutes."}}"#
        mock.stub(
            .get, "/base/v1/users/alice",
            answers: [
                .reply(
                    TransportResponse(
                        status: 429, headers: ["Retry-After": "2400", "Content-Type": "application/json"],
                        body: Data(limited.utf8))),
                .reply(TransportResponse(status: 200, body: Data(aliceJSON.utf8))),
            ])
        let sleeper = SleepRecorder()
        await #expect(
            throws: NetworkError.server(
                status: 429, code: "rate_limited", message: "You have posted too many tweets; try again in 40 minutes.",
                field: nil)
        ) {
            try await makeClient(mock, sleeper: sleeper).send(GetProfile())
        }
        #expect(mock.requests.count == 1 && sleeper.recorded.isEmpty)
        #expect(RetryPolicy.default.waits(for: .seconds(60)) && !RetryPolicy.default.waits(for: .seconds(61)))
    }

    @Test func nonIdempotentCallsAreNeverRetried() async throws {
        let mock = MockTransport()
        mock.stub(.post, "/base/v1/users", status: 503, json: #"{"error":{"code":"unavailable","message":"busy"}}"#)
        let sleeper = SleepRecorder()
        let client = makeClient(mock, sleeper: sleeper)
        await #expect(throws: NetworkError.server(status: 503, code: "unavailable", message: "busy", field: nil)) {
            try await client.send(CreateProfile())
        }
        #expect(mock.requests.count == 1 && sleeper.recorded.isEmpty)
    }

    @Test func retriesStopAfterThePolicyAndNotOnClientErrors() async throws {
        let mock = MockTransport()
        mock.faults = .init(latency: .seconds(10))  // at or above the 5 s timeout: every attempt times out
        let sleeper = SleepRecorder()
        let client = makeClient(mock, sleeper: sleeper, random: 0)
        await #expect(throws: NetworkError.timeout) { try await client.send(PutThing()) }
        #expect(mock.requests.count == 3 && sleeper.recorded == [.milliseconds(100), .milliseconds(200)])

        let notFound = MockTransport()
        notFound.stub(
            .get, "/base/v1/users/alice", status: 404, json: #"{"error":{"code":"user_not_found","message":"no"}}"#)
        await #expect(throws: NetworkError.self) { try await makeClient(notFound).send(GetProfile()) }
        #expect(notFound.requests.count == 1)
    }

    @Test func anUnreachableServerGetsItsOwnShorterRetryLimit() async throws {
        struct Patient: Endpoint {
            typealias Response = EmptyResponse
            var method: HTTPMethod { .put }
            var path: String { "/v1/things/1" }
            var retryPolicy: RetryPolicy {
                RetryPolicy(maxRetries: 5, baseDelay: .milliseconds(10), jitter: 0, unreachableRetries: 1)
            }
        }
        // No connection at all: the first try and one retry.
        let unreachable = MockTransport()
        unreachable.faults = .init(failureRate: 1)
        await #expect(throws: NetworkError.transport("injected failure")) {
            try await makeClient(unreachable).send(Patient())
        }
        #expect(unreachable.requests.count == 2)
        // A server that answers "busy" gets the full patience.
        let busy = MockTransport()
        busy.stub(.put, "/base/v1/things/1", status: 503, json: #"{"error":{"code":"unavailable","message":"busy"}}"#)
        await #expect(throws: NetworkError.self) { try await makeClient(busy).send(Patient()) }
        #expect(busy.requests.count == 6)
        #expect(
            RetryPolicy(maxRetries: 4).retries(after: .transport("x")) == 4,
            "without a limit of its own, unreachable uses maxRetries")
    }

    @Test func injectedFailuresAndDropsAreRetried() async throws {
        let flaky = MockTransport(random: { 0.1 })
        flaky.faults = .init(failureRate: 0.5)
        flaky.stub(.get, "/base/v1/users/alice", status: 200, json: aliceJSON)
        await #expect(throws: NetworkError.transport("injected failure")) {
            try await makeClient(flaky).send(GetProfile())
        }
        #expect(flaky.requests.count == 4)
        let dropping = MockTransport(random: { 0.1 })
        dropping.faults = .init(dropRate: 0.2)
        await #expect(throws: NetworkError.timeout) { try await makeClient(dropping).send(GetProfile()) }
        let slow = MockTransport(sleep: { _ in })
        slow.faults = .init(latency: .milliseconds(10))
        slow.stub(.get, "/base/v1/users/alice", status: 200, json: aliceJSON)
        #expect(try await makeClient(slow).send(GetProfile()).age == 30)
        #expect(slow.faults.latency == .milliseconds(10))
    }

    @Test func offlineFailsAtOnceWithoutSending() async throws {
        let mock = MockTransport()
        let client = makeClient(mock)
        client.server.isOffline = true
        await #expect(throws: NetworkError.offline) { try await client.send(GetProfile()) }
        #expect(mock.requests.isEmpty)
    }

    @Test func cancellationStopsABackoffWait() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/base/v1/users/alice", status: 503)
        let client = APIClient(
            server: Server(baseURL: URL(string: "http://api.test/base")!), transport: mock,
            sleep: { try await Task.sleep(for: $0) }, random: { 0 })
        let task = Task { try await client.send(GetProfile()) }
        while mock.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: NetworkError.cancelled) { try await task.value }
    }

    @Test func conditionalGetsReuseTheCachedBodyPerCredentials() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/base/v1/users/alice",
            answers: [
                .reply(TransportResponse(status: 200, headers: ["ETag": "\"v1\""], body: Data(aliceJSON.utf8))),
                .reply(TransportResponse(status: 304)),
            ])
        let cache = ETagCache(capacity: 1)
        let token = TokenBox("a")
        let client = APIClient(
            server: Server(baseURL: URL(string: "http://api.test/base")!), transport: mock, cache: cache,
            credentials: { ["Authorization": token.value] }, sleep: { _ in }, random: { 0 })
        #expect(try await client.send(GetProfile()).name == "alice")
        #expect(try await client.send(GetProfile()).name == "alice")
        #expect(mock.requests[1].headers["If-None-Match"] == "\"v1\"" && cache.count == 1)
        token.value = "b"
        _ = try? await client.send(GetProfile())
        #expect(mock.requests[2].headers["If-None-Match"] == nil, "another user's cache entry is not used")
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func retryAfterAcceptsAnHTTPDate() async throws {
        let mock = MockTransport()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let later = formatter.string(from: Date().addingTimeInterval(60))
        mock.stub(
            .get, "/base/v1/users/alice",
            answers: [
                .reply(TransportResponse(status: 503, headers: ["Retry-After": later])),
                .reply(TransportResponse(status: 503, headers: ["Retry-After": "soon"])),
                .reply(TransportResponse(status: 200, body: Data(aliceJSON.utf8))),
            ])
        let sleeper = SleepRecorder()
        _ = try await makeClient(mock, sleeper: sleeper, random: 0).send(GetProfile())
        #expect(sleeper.recorded.count == 2)
        #expect(sleeper.recorded[0] > .seconds(50) && sleeper.recorded[0] <= .seconds(60))
        #expect(sleeper.recorded[1] == .milliseconds(200))
    }
}

final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String
    init(_ value: String) { stored = value }
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
