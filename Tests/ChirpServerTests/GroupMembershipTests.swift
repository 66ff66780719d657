import ChirpModels
import Foundation
import Testing

/// A group's title, members and admins (API.md part 3), over real sockets on SQLite (and on
/// PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group membership")
struct GroupMembershipTests {
    static func members(_ api: APIHarness, _ viewer: Session, _ id: String) async throws -> [String] {
        let reply = try await api.getGroup(viewer, id)
        try #require(reply.status == 200, "group: \(reply.status) \(reply.text)")
        let group: Group = try reply.decode()
        #expect(group.memberCount == group.members.count)
        return group.members.map { "\($0.user.username):\($0.role.rawValue)" }
    }

    @Test func onlyAdminsRename() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let group = try await api.group(alice, ["bob"])
            let refused = try await api.send(
                .PATCH, "/v1/groups/\(group.id)", token: members[0].token, json: UpdateGroupRequest(title: "Mine"))
            #expect(refused.status == 403 && refused.errorCode == "not_admin")
            let renamed = try await api.send(
                .PATCH, "/v1/groups/\(group.id)", token: alice.token, json: UpdateGroupRequest(title: " Ours "))
            #expect(try renamed.status == 200 && renamed.decode(Group.self).title == "Ours")
            let empty = try await api.send(
                .PATCH, "/v1/groups/\(group.id)", token: alice.token, json: UpdateGroupRequest(title: ""))
            #expect(empty.status == 422 && empty.errorCode == "invalid_title")
            #expect(try await api.getGroup(members[0], group.id).decode(Group.self).title == "Ours")
        }
    }

    @Test func adminsAddMembersIdempotentlyUpToTheLimit() async throws {
        try await TestServer.run(TestServer.configuration { $0.maxGroupMembers = 3 }) { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol", "dave"])
            let group = try await api.group(alice, ["bob"])
            let notAdmin = try await api.groupMember(members[0], .PUT, group.id, "carol")
            #expect(notAdmin.status == 403 && notAdmin.errorCode == "not_admin")
            #expect(try await api.groupMember(alice, .PUT, group.id, "carol").status == 204)
            #expect(try await api.groupMember(alice, .PUT, group.id, "CAROL").status == 204, "idempotent")
            let full = try await api.groupMember(alice, .PUT, group.id, "dave")
            #expect(full.status == 409 && full.errorCode == "group_full")
            #expect(try await api.groupMember(alice, .PUT, group.id, "nobody").status == 404)
            _ = try await api.register("eve")
            #expect(try await api.groupMember(alice, .DELETE, group.id, "carol").status == 204)
            let refused = try await api.groupMember(alice, .PUT, group.id, "eve")
            #expect(refused.status == 403 && refused.errorCode == "dm_not_allowed", "eve does not follow alice")
            #expect(try await Self.members(api, alice, group.id) == ["alice:admin", "bob:member"])
        }
    }

    @Test func adminsRemoveAnyoneAndAnyoneLeaves() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol", "dave"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob", "carol", "dave"])
            let refused = try await api.groupMember(bob, .DELETE, group.id, "carol")
            #expect(refused.status == 403 && refused.errorCode == "not_admin")
            #expect(try await api.groupMember(alice, .DELETE, group.id, "carol").status == 204)
            #expect(try await api.groupMember(alice, .DELETE, group.id, "carol").status == 204, "idempotent")
            #expect(try await api.groupMember(bob, .DELETE, group.id, "bob").status == 204, "bob leaves")
            #expect(try await api.getGroup(carol, group.id).status == 404)
            #expect(try await Self.members(api, alice, group.id) == ["alice:admin", "dave:member"])
            let gone = try await api.groupMember(bob, .DELETE, group.id, "dave")
            #expect(gone.status == 404 && gone.errorCode == "group_not_found")
        }
    }

    @Test func whenTheLastAdminLeavesTheLongestStandingMemberBecomesAdmin() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol", "dave"])
            let group = try await api.group(alice, ["carol", "bob"])
            #expect(try await api.groupMember(alice, .PUT, group.id, "dave").status == 204)
            #expect(try await api.groupMember(alice, .DELETE, group.id, "alice").status == 204)
            #expect(try await Self.members(api, members[0], group.id) == ["carol:admin", "bob:member", "dave:member"])
            // The last member leaving ends the group.
            for member in [members[1], members[0], members[2]] {
                #expect(try await api.groupMember(member, .DELETE, group.id, member.username).status == 204)
            }
            for member in members { #expect(try await api.getGroup(member, group.id).status == 404) }
            #expect(try await api.groupTexts(members[1], group.id) == [], "its history stays readable")
        }
    }

    @Test func adminsGiveAndTakeTheAdminRole() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let bob = members[0]
            let group = try await api.group(alice, ["bob", "carol"])
            let refused = try await api.groupMember(bob, .PUT, group.id, "bob", "admins")
            #expect(refused.status == 403 && refused.errorCode == "not_admin")
            #expect(try await api.groupMember(alice, .PUT, group.id, "bob", "admins").status == 204)
            #expect(try await api.groupMember(alice, .PUT, group.id, "bob", "admins").status == 204, "idempotent")
            #expect(
                try await api.groupMember(bob, .PUT, group.id, "carol", "admins").status == 204, "bob is an admin now")
            #expect(try await api.groupMember(bob, .DELETE, group.id, "alice", "admins").status == 204)
            #expect(try await Self.members(api, bob, group.id) == ["alice:member", "bob:admin", "carol:admin"])
            let notMember = try await api.groupMember(bob, .PUT, group.id, "nobody", "admins")
            #expect(notMember.status == 404)
            #expect(try await api.groupMember(bob, .DELETE, group.id, "carol", "admins").status == 204)
            let last = try await api.groupMember(bob, .DELETE, group.id, "bob", "admins")
            #expect(last.status == 409 && last.errorCode == "last_admin")
            let renamedByMember = try await api.send(
                .PATCH, "/v1/groups/\(group.id)", token: alice.token, json: UpdateGroupRequest(title: "x"))
            #expect(renamedByMember.errorCode == "not_admin")
        }
    }
}
