import ChirpModels
import Foundation
import Testing

/// The events of group conversations (API.md part 3): every member's stream gets each group
/// message once, gap-free, with reads, group changes and removals, over real sockets on SQLite
/// (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group events")
struct GroupEventTests {
    /// The types of the viewer's stored events, follows left out.
    static func types(_ api: APIHarness, _ viewer: Session) async throws -> [String] {
        try await api.allEvents(viewer).map(\.type).filter { $0 != EventType.followCreated }
    }

    @Test func everyMemberGetsEachGroupMessageOnceGapFree() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let group = try await api.group(alice, ["bob", "carol"])
            // Direct messages interleave with group ones in the same streams.
            try await api.follow(alice, "bob")
            for index in 0..<5 {
                _ = try await api.sentToGroup([alice, members[0], members[1]][index % 3], group.id, "g\(index)")
                #expect(try await api.sendMessage(members[0], to: "alice", "d\(index)").status == 201)
            }
            for viewer in [alice] + members {
                let events = try await api.allEvents(viewer)
                #expect(events.map(\.seq) == (1...Int64(events.count)).map { $0 }, "gap-free for \(viewer.username)")
                let groupMessages = events.compactMap { event -> Message? in
                    if case .messageCreated(let message) = event.payload, message.group != nil { return message }
                    return nil
                }
                #expect(groupMessages.map(\.text) == (0..<5).map { "g\($0)" })
                #expect(groupMessages.allSatisfy { $0.group == group.id })
                #expect(events.first { $0.type == EventType.groupCreated }?.payload == .groupCreated(group))
            }
        }
    }

    @Test func readsReachEveryMember() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let group = try await api.group(alice, ["bob", "carol"])
            let message = try await api.sentToGroup(alice, group.id, "read me")
            #expect(try await api.readGroup(members[0], group.id, upTo: message.id).status == 204)
            #expect(try await api.readGroup(members[0], group.id, upTo: message.id).status == 204, "again: nothing new")
            for viewer in [alice] + members {
                let receipts = try await api.allEvents(viewer).compactMap { event -> ReadReceipt? in
                    if case .messageRead(let receipt) = event.payload { return receipt }
                    return nil
                }
                #expect(receipts == [ReadReceipt(reader: "bob", peer: "", upTo: message.id, group: group.id)])
            }
        }
    }

    @Test func groupChangesReachTheMembersAndRemovalsTheRemoved() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob"])
            #expect(
                try await api.send(
                    .PATCH, "/v1/groups/\(group.id)", token: alice.token, json: UpdateGroupRequest(title: "New")
                ).status == 200)
            #expect(try await api.groupMember(alice, .PUT, group.id, "carol").status == 204)
            #expect(try await api.groupMember(alice, .PUT, group.id, "carol", "admins").status == 204)
            #expect(try await api.groupMember(alice, .DELETE, group.id, "bob").status == 204)
            #expect(
                try await Self.types(api, alice) == [
                    "group.created", "group.updated", "group.updated", "group.updated", "group.updated",
                ])
            #expect(
                try await Self.types(api, bob) == [
                    "group.created", "group.updated", "group.updated", "group.updated", "group.removed",
                ])
            #expect(try await Self.types(api, carol) == ["group.created", "group.updated", "group.updated"])
            let bobsLast = try #require(try await api.allEvents(bob).last)
            #expect(bobsLast.payload == .groupRemoved(GroupRemovedNotice(group: group.id)))
            guard case .groupUpdated(let latest) = try #require(try await api.allEvents(carol).last).payload else {
                Issue.record("carol's last event is not group.updated")
                return
            }
            #expect(latest.title == "New" && latest.members.map(\.user.username) == ["alice", "carol"])
            #expect(latest.members.map(\.role) == [.admin, .admin])
        }
    }

    @Test func typingReachesTheOtherMembersLiveOnly() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let group = try await api.group(alice, ["bob"])
            let bob = members[0]
            let result = try await api.liveEvents(bob, since: 1) {
                try await api.send(.POST, "/v1/groups/\(group.id)/typing", token: alice.token)
            }
            let notice = try #require(result.events.first)
            #expect(notice.seq == nil && notice.payload == .typing(TypingNotice(from: "alice", group: group.id)))
            #expect(try await Self.types(api, bob) == ["group.created"], "typing is never stored")
            #expect(try await Self.types(api, alice) == ["group.created"], "nor told to the typist")
        }
    }
}
