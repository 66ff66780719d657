import ChirpModels
import Foundation
import Testing

extension ScaleOutAcrossInstancesTests {
    /// A block made through one instance holds at once on the other: the blocked user's typing
    /// (checked where it arrives) never reaches the blocker's stream on either instance, their
    /// messages and follows are refused, and the blocker's stream on the other instance gets
    /// `block.created` live.
    @Test(.enabled(if: ScaleOutTests.available || ScaleOutTests.required, ScaleOutTests.skipReason))
    func aBlockThroughOneInstanceHoldsOnTheOtherAtOnce() async throws {
        try await ScaleOutTests.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let alice = try await first.register("alice")
            let bob = try await first.register("bob")
            try await first.follow(alice, "bob")
            try await first.follow(bob, "alice")
            try await ScaleOutTests.sendReliably(first, alice, to: "bob", "hi bob")
            let stream = ResumingStream(port: cluster.instances[0].port, token: alice.token)
            let task = Task { await stream.run() }
            defer { task.cancel() }
            #expect(await stream.wait { _ in stream.connections > 0 })
            // Before the block, bob's typing through the second instance reaches alice on the first.
            #expect(try await second.send(.POST, "/v1/conversations/alice/typing", token: bob.token).status == 204)
            #expect(
                await stream.wait(timeout: .seconds(5)) { events in events.contains { $0.type == EventType.typing } })

            #expect(try await second.send(.PUT, "/v1/users/bob/block", token: alice.token).status == 204)
            #expect(
                await stream.wait(timeout: .seconds(5)) { events in
                    events.contains { $0.payload == .blockCreated(BlockNotice(username: "bob")) }
                }, "the block event reaches alice's stream on the other instance")
            let typingBefore = stream.all.filter { $0.type == EventType.typing }.count
            for api in [first, second, first, second] {
                let typing = try await api.send(.POST, "/v1/conversations/alice/typing", token: bob.token)
                #expect(typing.status == 403 && typing.errorCode == "dm_not_allowed")
            }
            let message = try await first.sendMessage(bob, to: "alice", "still there?")
            #expect(message.status == 403 && message.errorCode == "dm_not_allowed")
            #expect(try await first.send(.PUT, "/v1/users/alice/follow", token: bob.token).errorCode == "blocked")
            let list: Page<Conversation> = try await first.send(.GET, "/v1/conversations", token: alice.token).decode()
            #expect(list.items.isEmpty)
            try await Task.sleep(for: .milliseconds(500))
            #expect(
                stream.all.filter { $0.type == EventType.typing }.count == typingBefore, "no typing after the block")
        }
    }

    /// A password change through one instance ends the other sessions, and their event streams
    /// open on the other instance close at once (1008 `session ended`).
    @Test(.enabled(if: ScaleOutTests.available || ScaleOutTests.required, ScaleOutTests.skipReason))
    func aPasswordChangeThroughOneInstanceClosesStreamsOnTheOther() async throws {
        try await ScaleOutTests.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let alice = try await first.register("alice")
            let tablet = try await second.login("alice", password: "correct horse").decode(AuthResponse.self).token
            let port = cluster.instances[1].port
            let stream = Task {
                try await SilentWebSocket.connect(
                    port: port, path: "/v1/events/stream?token=\(tablet)", timeout: .seconds(30))
            }
            try await StreamLimitTests.waitForOpenStreams(1, second)
            let change = ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple")
            #expect(try await first.send(.PUT, "/v1/me/password", token: alice.token, json: change).status == 204)
            let closed = try await stream.value
            #expect(closed.endedByServer)
            #expect(closed.closeCode == 1008)
            #expect(closed.closeReason == "session ended")
        }
    }
}
