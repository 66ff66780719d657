import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A graceful stop (SIGINT) ends every kind of connection within a few seconds, whatever its
/// state: silent, half a head sent, idle between requests, waiting in a long-poll, and an event
/// stream whose client never answers. The head timeout is a minute here, so only the shutdown
/// itself can close the silent ones in time.
@Suite("Prompt shutdown")
struct PromptShutdownTests {
    @Test func sigintEndsEveryConnectionWithinAFewSeconds() async throws {
        let server = try await ServerProcess(arguments: [
            "--header-timeout", "60", "--idle-timeout", "60", "--max-wait", "30",
        ])
        let api = server.api
        let alice = try await api.register("alice")
        var connections: [RawConnection] = []
        for _ in 0..<20 { connections.append(try await RawConnection.open(port: api.port)) }
        let halfHead = try await RawConnection.open(port: api.port)
        try await halfHead.write("GET /healthz HTTP/1.1\r\nHost: chi")
        let idle = try await RawConnection.open(port: api.port)
        try await idle.write(RawConnection.healthRequest())
        #expect(try await idle.receivedHealthAnswers(1, within: .seconds(5)))
        let longPoll = try await RawConnection.open(port: api.port)
        try await longPoll.write(
            "GET /v1/events?since=0&wait=30 HTTP/1.1\r\nHost: chirp\r\nAuthorization: Bearer \(alice.token)\r\n\r\n")
        let port = api.port
        let stream = Task {
            try await SilentWebSocket.connect(
                port: port, path: "/v1/events/stream?since=0&token=\(alice.token)", timeout: .seconds(20))
        }
        try await StreamLimitTests.waitForOpenStreams(1, api)
        try await Task.sleep(for: .milliseconds(300))  // the long-poll is waiting by now

        let stopping = ContinuousClock.now
        #expect(try await server.stop(signal: SIGINT) == 0)
        let took = ContinuousClock.now - stopping
        #expect(took < .seconds(5), "stopped after \(took)")
        let closedStream = try await stream.value
        #expect(closedStream.closeCode == 1001)
        for connection in connections + [halfHead, idle, longPoll] {
            #expect(try await connection.closedByServer(within: .seconds(1)))
            await connection.close()
        }
    }
}
