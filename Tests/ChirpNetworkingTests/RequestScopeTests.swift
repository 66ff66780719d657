import ChirpNetworking
import Foundation
import Testing

@Suite("RequestScope")
struct RequestScopeTests {
    @Test func releasingTheScopeCancelsPendingRequests() async throws {
        let mock = MockTransport()
        // The answer would take 300 s: ending well before that means the release cancelled it
        // (the bound is loose because CI runs this beside server processes on two cores).
        mock.faults = .init(latency: .seconds(300))
        mock.stub(.get, "/v1/users/alice", status: 200, json: aliceJSON)
        let client = APIClient(server: Server(baseURL: URL(string: "http://api.test")!), transport: mock, timeout: .seconds(600))
        var scope: RequestScope? = RequestScope(client: client)
        let requests = scope!.requests
        let started = ContinuousClock.now
        let task = Task { try await requests.send(GetProfile()) }
        while requests.pendingCount == 0 { await Task.yield() }
        scope = nil
        await #expect(throws: NetworkError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(requests.isClosed && requests.pendingCount == 0)
        await #expect(throws: NetworkError.cancelled) { try await requests.send(GetProfile()) }
        _ = scope
    }

    @Test func cancelAllKeepsTheScopeUsable() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/v1/users/alice", status: 200, json: aliceJSON)
        let client = APIClient(server: Server(baseURL: URL(string: "http://api.test")!), transport: mock)
        let scope = RequestScope(client: client)
        mock.faults = .init(latency: .seconds(30))
        let task = Task { try await scope.requests.send(GetProfile()) }
        while scope.requests.pendingCount == 0 { await Task.yield() }
        scope.cancelAll()
        await #expect(throws: NetworkError.cancelled) { try await task.value }
        mock.faults = .init()
        #expect(try await scope.requests.send(GetProfile()).name == "alice")
    }

    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        let mock = MockTransport()
        mock.faults = .init(latency: .seconds(30))
        let client = APIClient(server: Server(baseURL: URL(string: "http://api.test")!), transport: mock, timeout: .seconds(60))
        let scope = RequestScope(client: client)
        let task = Task { try await scope.requests.send(GetProfile()) }
        while scope.requests.pendingCount == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: NetworkError.cancelled) { try await task.value }
    }
}
