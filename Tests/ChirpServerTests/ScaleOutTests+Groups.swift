import ChirpModels
import Foundation
import Testing

extension ScaleOutAcrossInstancesTests {
    /// Group events cross instances as direct ones do: a group's creation, messages, reads,
    /// renames and typing written through one instance reach members' streams on the other
    /// live, each stream gap-free.
    @Test(.enabled(if: ScaleOutTests.available || ScaleOutTests.required, ScaleOutTests.skipReason))
    func groupEventsReachMembersOnTheOtherInstance() async throws {
        try await ScaleOutTests.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let (alice, members) = try await first.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let bobStream = ResumingStream(port: cluster.instances[0].port, token: bob.token)
            let carolStream = ResumingStream(port: cluster.instances[1].port, token: carol.token)
            let tasks = [Task { await bobStream.run() }, Task { await carolStream.run() }]
            defer { tasks.forEach { $0.cancel() } }
            #expect(await bobStream.wait { _ in bobStream.connections > 0 && carolStream.connections > 0 })

            let group = try await first.group(alice, ["bob", "carol"])
            #expect(
                await carolStream.wait(timeout: .seconds(5)) { events in
                    events.contains { $0.payload == .groupCreated(group) }
                })
            let message = try await first.sentToGroup(alice, group.id, "hello, team")
            #expect(
                await carolStream.wait(timeout: .seconds(5)) { events in
                    events.contains { if case .messageCreated(let m) = $0.payload { m == message } else { false } }
                }, "carol, on the other instance, sees the group message live")
            #expect(try await second.readGroup(carol, group.id, upTo: message.id).status == 204)
            #expect(
                try await second.send(
                    .PATCH, "/v1/groups/\(group.id)", token: alice.token, json: UpdateGroupRequest(title: "Crew")
                ).status == 200)
            #expect(
                await bobStream.wait(timeout: .seconds(5)) { events in
                    events.contains {
                        if case .messageRead(let receipt) = $0.payload { receipt.reader == "carol" } else { false }
                    }
                        && events.contains {
                            if case .groupUpdated(let updated) = $0.payload { updated.title == "Crew" } else { false }
                        }
                }, "bob, on the first instance, sees what went through the second")
            for _ in 0..<2 {
                #expect(try await first.send(.POST, "/v1/groups/\(group.id)/typing", token: alice.token).status == 204)
            }
            #expect(
                await carolStream.wait(timeout: .seconds(5)) { events in
                    events.contains { $0.payload == .typing(TypingNotice(from: "alice", group: group.id)) }
                })
            #expect(
                ScaleOutTests.isGapFree(bobStream.stored.compactMap(\.seq))
                    && ScaleOutTests.isGapFree(carolStream.stored.compactMap(\.seq)))
        }
    }
}
