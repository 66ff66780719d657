import ChirpModels
import Foundation
import Testing

/// Account deletion in groups (API.md part 2's deletion, with part 3's groups): the account's
/// group messages become tombstones wherever they are stored, the account leaves every group
/// as a leave does, and the other members keep the conversation. Over real sockets on SQLite
/// (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group deletion")
struct GroupDeletionTests {
    static func deleteAccount(_ api: APIHarness, _ viewer: Session) async throws {
        let reply = try await api.send(
            .DELETE, "/v1/me", token: viewer.token, json: DeleteAccountRequest(password: "correct horse"))
        try #require(reply.status == 204, "delete: \(reply.status) \(reply.text)")
    }

    static func group(_ api: APIHarness, _ viewer: Session, _ id: String) async throws -> Group {
        let reply = try await api.getGroup(viewer, id)
        try #require(reply.status == 200, "group: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    static func roles(_ group: Group) -> [String] { group.members.map { "\($0.user.username):\($0.role.rawValue)" } }

    @Test func aDeletedMembersGroupMessagesBecomeTombstonesEverywhere() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob", "carol"])
            let secret = try await api.sentToGroup(bob, group.id, "the first secret")
            let edited = try await api.send(
                .PATCH, "/v1/groups/\(group.id)/messages/\(secret.id)", token: bob.token,
                json: TextBody(text: "the second secret"))
            #expect(edited.status == 200)
            let reaction = try await api.send(
                .PUT, "/v1/groups/\(group.id)/messages/\(secret.id)/reactions/%F0%9F%91%8D", token: carol.token)
            #expect(reaction.status == 204)
            _ = try await api.sentToGroup(alice, group.id, "hello both")
            // Direct messages' stored events sit in the same streams (on SQLite without JSON).
            #expect(try await api.sendMessage(alice, to: "bob", "a direct word").status == 201)
            // Carol leaves: a former member keeps what she saw, and it must be emptied too.
            #expect(try await api.groupMember(carol, .DELETE, group.id, "carol").status == 204)

            try await Self.deleteAccount(api, bob)

            let placeholder = "deleted-\(bob.user.id)"
            for viewer in [alice, carol] {
                let page = try await api.groupMessages(viewer, group.id).decode(Page<Message>.self)
                #expect(page.items.map(\.text) == ["", "hello both"], "\(viewer.username)")
                let tombstone = try #require(page.items.first)
                #expect(tombstone.deleted && tombstone.media.isEmpty && tombstone.reactions.isEmpty)
                #expect(tombstone.sender == placeholder && tombstone.id == secret.id)
                // The stored events held its JSON (created, edited, reacted to): no text left.
                let raw = try await api.send(.GET, "/v1/events?since=0", token: viewer.token).text
                #expect(!raw.contains("secret"), "\(viewer.username)")
                let copies = try await api.allEvents(viewer).compactMap { event -> Message? in
                    switch event.payload {
                    case .messageCreated(let message), .messageUpdated(let message):
                        message.id == secret.id ? message : nil
                    default: nil
                    }
                }
                #expect(copies.count == 3, "\(viewer.username): created, edited, reacted")
                #expect(
                    copies.allSatisfy {
                        $0.deleted && $0.text.isEmpty && $0.reactions.isEmpty && $0.sender == placeholder
                    })
            }
            // Search finds nothing of it either.
            let search = try await api.send(.GET, "/v1/search/messages?q=secret", token: alice.token).decode(
                Page<Message>.self)
            #expect(search.items.isEmpty)
        }
    }

    @Test func theDeletedAccountLeavesItsGroupsAndTheMembersAreTold() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol", "dave"])
            let (bob, carol, dave) = (members[0], members[1], members[2])
            let group = try await api.group(alice, ["bob", "carol"])
            _ = try await api.sentToGroup(carol, group.id, "hi")
            #expect(try await api.send(.PUT, "/v1/groups/\(group.id)/pin", token: bob.token).status == 204)

            try await Self.deleteAccount(api, bob)

            #expect(Self.roles(try await Self.group(api, alice, group.id)) == ["alice:admin", "carol:member"])
            for viewer in [alice, carol] {
                let events = try await api.allEvents(viewer)
                let deleted = events.compactMap { event -> UserDeletedNotice? in
                    if case .userDeleted(let notice) = event.payload { return notice }
                    return nil
                }
                #expect(deleted == [UserDeletedNotice(username: "bob")], "\(viewer.username): a group peer is told")
                let updates = events.compactMap { event -> Group? in
                    if case .groupUpdated(let group) = event.payload { return group }
                    return nil
                }
                #expect(updates.last.map(Self.roles) == ["alice:admin", "carol:member"], "\(viewer.username)")
            }
            #expect(
                !(try await api.allEvents(dave)).contains { $0.type == EventType.userDeleted },
                "dave shares no group with bob")
            // The members keep the conversation, and talk on in it.
            let list = try await api.send(.GET, "/v1/conversations", token: carol.token).decode(Page<Conversation>.self)
            #expect(list.items.map(\.group?.id) == [group.id])
            #expect(try await api.sendToGroup(alice, group.id, "still here").status == 201)
            #expect(try await api.groupTexts(carol, group.id) == ["hi", "still here"])
            // The name is free again, and the new account is in no group.
            let again = try await api.register("bob")
            #expect(try await api.getGroup(again, group.id).status == 404)
            #expect(
                try await api.send(.GET, "/v1/conversations", token: again.token).decode(Page<Conversation>.self).items
                    .isEmpty)
        }
    }

    @Test func deletingTheLastAdminPromotesAndTheLastMemberEndsTheGroup() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["carol", "bob"])
            _ = try await api.sentToGroup(alice, group.id, "from alice")

            try await Self.deleteAccount(api, alice)

            let after = try await Self.group(api, carol, group.id)
            #expect(Self.roles(after) == ["carol:admin", "bob:member"], "the longest-standing member becomes admin")
            #expect(after.createdBy == "deleted-\(alice.user.id)")
            #expect(
                try await api.groupMember(carol, .PUT, group.id, "bob", "admins").status == 204, "carol acts as admin")

            #expect(try await api.groupMember(carol, .DELETE, group.id, "carol").status == 204)
            try await Self.deleteAccount(api, bob)
            // The group ended with its last member: carol, who left, still reads her history.
            #expect(try await api.getGroup(carol, group.id).status == 404)
            #expect(try await api.groupTexts(carol, group.id) == [""])
            let refused = try await api.sendToGroup(carol, group.id, "anyone?")
            #expect(refused.status == 404)
        }
    }
}
