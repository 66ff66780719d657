import ChirpModels
import Foundation
import Testing

/// At most `maxStreamsPerUser` event streams per user: one more closes the oldest with 1008
/// `too many streams`, and the others keep working.
@Suite("Event streams per user")
struct StreamLimitTests {
    /// `chirp_event_streams_open` from `/metrics`.
    static func openStreams(_ api: APIHarness) async throws -> Int {
        let text = try await api.send(.GET, "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("chirp_event_streams_open ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    static func waitForOpenStreams(_ count: Int, _ api: APIHarness) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await openStreams(api) != count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await openStreams(api) == count)
    }

    @Test func theEleventhStreamClosesTheOldestAndTheOthersKeepWorking() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let port = api.port
            let path = "/v1/events/stream?token=\(alice.token)"
            // Generous limits: each wait ends as soon as its stream is closed or has its event,
            // and a loaded machine may take seconds to open eleven streams.
            let oldest = Task { try await SilentWebSocket.connect(port: port, path: path, timeout: .seconds(30)) }
            try await Self.waitForOpenStreams(1, api)
            let others = (0..<9).map { _ in
                Task {
                    try await WebSocketStreamTests.collect(
                        port: port, query: "?token=\(alice.token)", count: 1, timeout: .seconds(30))
                }
            }
            try await Self.waitForOpenStreams(10, api)
            // The 11th: the oldest goes, with the policy-violation code and the reason.
            let newest = Task {
                try await WebSocketStreamTests.collect(
                    port: port, query: "?token=\(alice.token)", count: 1, timeout: .seconds(30))
            }
            let closed = try await oldest.value
            #expect(closed.endedByServer)
            #expect(closed.closeCode == 1008)
            #expect(closed.closeReason == "too many streams")
            try await Self.waitForOpenStreams(10, api)
            // The ten left all get the next event.
            #expect(
                try await api.send(.PUT, "/v1/tweets/t1", token: alice.token, json: TextBody(text: "still here")).status
                    == 201)
            for stream in others + [newest] {
                #expect(try await stream.value.map(\.type) == ["tweet.created"])
            }
        }
    }

    /// A token that stops working stops its stream too: ending a session (here from another
    /// device) closes that session's open stream with 1008 `session ended`; the user's other
    /// stream keeps getting events.
    @Test func aStreamClosesWhenItsSessionEnds() async throws {
        try await TestServer.run { api in
            let phone = try await api.register("alice")
            let laptop = try await AccountSecurityTests.login(api, "alice", agent: "laptop")
            let port = api.port
            let ending = Task {
                try await SilentWebSocket.connect(
                    port: port, path: "/v1/events/stream?token=\(phone.token)", timeout: .seconds(30))
            }
            let staying = Task {
                try await WebSocketStreamTests.collect(
                    port: port, query: "?token=\(laptop)", count: 1, timeout: .seconds(30))
            }
            try await Self.waitForOpenStreams(2, api)
            let phoneSession = try #require(
                try await AccountSecurityTests.sessions(api, token: phone.token).first { $0.current })
            #expect(try await api.send(.DELETE, "/v1/sessions/\(phoneSession.id)", token: laptop).status == 204)
            let closed = try await ending.value
            #expect(closed.endedByServer)
            #expect(closed.closeCode == 1008)
            #expect(closed.closeReason == "session ended")
            try await Self.waitForOpenStreams(1, api)
            #expect(
                try await api.send(.PUT, "/v1/tweets/t1", token: laptop, json: TextBody(text: "still here")).status
                    == 201)
            #expect(try await staying.value.map(\.type) == ["tweet.created"])
        }
    }
}
