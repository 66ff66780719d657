import ChirpModels
import Foundation
import Testing

/// Group conversations (API.md part 3): creation, the group, messages, paging, reads and
/// blocks, over real sockets on SQLite (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Groups")
struct GroupTests {
    @Test func creatingIsIdempotentByClientGroupId() async throws {
        try await TestServer.run { api in
            let (alice, _) = try await api.people("alice", ["bob", "carol"])
            let created = try await api.createGroup(
                alice, "  Team  ", ["bob", "Carol", "bob", "alice"], clientId: "g1")
            #expect(created.status == 201)
            let group: Group = try created.decode()
            #expect(group.title == "Team" && group.createdBy == "alice" && group.memberCount == 3)
            #expect(group.members.map(\.user.username) == ["alice", "bob", "carol"])
            #expect(group.members.map(\.role) == [.admin, .member, .member])
            let again = try await api.createGroup(alice, "Team", ["carol", "bob"], clientId: "g1")
            #expect(again.status == 200)
            #expect(try again.decode(Group.self) == group)
            let other = try await api.createGroup(alice, "Other", ["bob"], clientId: "g1")
            #expect(other.status == 409 && other.errorCode == "client_id_reused")
            #expect(try await api.createGroup(alice, "Team", ["bob"], clientId: "bad id!").status == 400)
        }
    }

    @Test func titleAndMemberCountAreChecked() async throws {
        try await TestServer.run(TestServer.configuration { $0.maxGroupMembers = 3 }) { api in
            let (alice, _) = try await api.people("alice", ["bob", "carol", "dave"])
            for title in ["", "   ", String(repeating: "x", count: 81)] {
                let refused = try await api.createGroup(alice, title, ["bob"])
                #expect(refused.status == 422 && refused.errorCode == "invalid_title")
            }
            #expect(try await api.createGroup(alice, String(repeating: "é", count: 80), ["bob"]).status == 201)
            let empty = try await api.createGroup(alice, "Team", ["alice"])
            #expect(empty.status == 422 && empty.errorCode == "invalid_members")
            let tooMany = try await api.createGroup(alice, "Team", ["bob", "carol", "dave"])
            #expect(tooMany.status == 422 && tooMany.errorCode == "invalid_members")
            #expect(try await api.createGroup(alice, "Team", ["bob", "carol"]).status == 201)
            let missing = try await api.createGroup(alice, "Team", ["bob", "nobody"])
            #expect(missing.status == 404 && missing.errorCode == "user_not_found")
        }
    }

    @Test func everyMemberMustBeSomeoneTheCreatorMayMessage() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let dave = try await api.register("dave")
            let refused = try await api.createGroup(alice, "Team", ["bob", "dave"])
            #expect(refused.status == 403 && refused.errorCode == "dm_not_allowed")
            #expect(try refused.decode(APIErrorBody.self).error.field == "dave")
            // With requests from everyone, being added is a request instead.
            #expect(
                try await api.send(.PATCH, "/v1/me/settings", token: dave.token, json: ["messageRequests": "everyone"])
                    .status == 200)
            let group = try await api.group(alice, ["bob", "dave"])
            #expect(group.memberCount == 3)
            // Blocks refuse either way, and name the member.
            #expect(try await api.send(.PUT, "/v1/users/alice/block", token: members[0].token).status == 204)
            let blocked = try await api.createGroup(alice, "Team", ["bob"])
            #expect(blocked.status == 403 && blocked.errorCode == "dm_not_allowed")
            #expect(try blocked.decode(APIErrorBody.self).error.field == "bob")
            let carol = try await api.register("carol")
            try await api.follow(carol, "alice")
            #expect(try await api.send(.PUT, "/v1/users/carol/block", token: alice.token).status == 204)
            let blocker = try await api.createGroup(alice, "Team", ["carol"])
            #expect(blocker.status == 403 && blocker.errorCode == "dm_not_allowed")
        }
    }

    @Test func onlyMembersSeeTheGroup() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let eve = try await api.register("eve")
            let group = try await api.group(alice, ["bob"])
            #expect(try await api.getGroup(members[0], group.id).decode(Group.self) == group)
            for (viewer, id) in [(eve, group.id), (alice, "999999"), (alice, "nope")] {
                let hidden = try await api.getGroup(viewer, id)
                #expect(hidden.status == 404 && hidden.errorCode == "group_not_found")
            }
            #expect(try await api.sendToGroup(eve, group.id, "hi").status == 404)
            #expect(try await api.groupMessages(eve, group.id).status == 404)
            #expect(try await api.send(.POST, "/v1/groups/\(group.id)/typing", token: eve.token).status == 404)
        }
    }

    @Test func messagesAreIdempotentByClientMessageIdAndPaged() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let bob = members[0]
            let group = try await api.group(alice, ["bob", "carol"])
            let first = try await api.sendToGroup(alice, group.id, "hello", clientId: "m1")
            #expect(first.status == 201)
            let message: Message = try first.decode()
            #expect(
                message.group == group.id && message.recipient == "" && message.readCount == 0
                    && !message.readByRecipient)
            #expect(first.text.contains(#""recipient":null"#) && first.text.contains(#""group":"\#(group.id)""#))
            let again = try await api.sendToGroup(alice, group.id, "hello", clientId: "m1")
            #expect(try again.status == 200 && again.decode(Message.self) == message)
            let reused = try await api.sendToGroup(alice, group.id, "other", clientId: "m1")
            #expect(reused.status == 409 && reused.errorCode == "client_id_reused")
            let reply = try await api.sendToGroup(bob, group.id, "hi alice", replyTo: message.id)
            #expect(try reply.status == 201 && reply.decode(Message.self).replyTo == message.id)
            let badReply = try await api.sendToGroup(bob, group.id, "?", replyTo: "999999")
            #expect(badReply.status == 422 && badReply.errorCode == "invalid_reply")
            #expect(try await api.sendToGroup(bob, group.id, "   ").status == 422)
            for index in 1...3 { _ = try await api.sentToGroup(members[1], group.id, "c\(index)") }
            // Direct messages and group messages share one id sequence.
            try await api.follow(alice, "bob")
            let direct: Message = try await api.sendMessage(bob, to: "alice", "direct").decode()
            // One table for both kinds: a reply names a message of its own conversation only,
            // and a client id used in the group is free for a direct message.
            let crossed = try await api.sendToGroup(bob, group.id, "?", replyTo: direct.id)
            #expect(crossed.status == 422 && crossed.errorCode == "invalid_reply")
            let crossedBack = try await api.sendMessage(bob, to: "alice", "?", replyTo: message.id)
            #expect(crossedBack.status == 422 && crossedBack.errorCode == "invalid_reply")
            #expect(try await api.sendMessage(alice, to: "bob", "same client id", clientId: "m1").status == 201)
            let after = try await api.sentToGroup(alice, group.id, "after the direct one")
            #expect(Int(after.id)! > Int(direct.id)! && Int(direct.id)! > Int(message.id)!)

            let newest = try await api.groupMessages(bob, group.id, query: "?limit=2").decode(Page<Message>.self)
            #expect(newest.items.map(\.text) == ["c3", "after the direct one"])
            let older = try await api.groupMessages(bob, group.id, query: "?limit=2&before=\(newest.nextCursor!)")
                .decode(Page<Message>.self)
            #expect(older.items.map(\.text) == ["c1", "c2"])
            let forwards = try await api.groupMessages(bob, group.id, query: "?limit=2&after=\(message.id)").decode(
                Page<Message>.self)
            #expect(forwards.items.map(\.text) == ["hi alice", "c1"] && forwards.nextCursor != nil)
            #expect(
                try await api.groupTexts(members[1], group.id) == [
                    "hello", "hi alice", "c1", "c2", "c3", "after the direct one",
                ])
        }
    }

    @Test func aLaterMemberSeesMessagesFromJoiningAndARemovedOneKeepsWhatTheySaw() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob"])
            _ = try await api.sentToGroup(alice, group.id, "before carol")
            #expect(try await api.groupMember(alice, .PUT, group.id, "carol").status == 204)
            _ = try await api.sentToGroup(bob, group.id, "with carol")
            #expect(try await api.groupTexts(carol, group.id) == ["with carol"])
            #expect(try await api.groupMember(alice, .DELETE, group.id, "bob").status == 204)
            _ = try await api.sentToGroup(alice, group.id, "after bob")
            #expect(
                try await api.groupTexts(bob, group.id) == ["before carol", "with carol"], "readable, no longer updated"
            )
            let refused = try await api.sendToGroup(bob, group.id, "still here?")
            #expect(refused.status == 404 && refused.errorCode == "group_not_found")
            #expect(try await api.getGroup(bob, group.id).status == 404)
            #expect(try await api.groupTexts(carol, group.id) == ["with carol", "after bob"])
        }
    }

    @Test func readsCountPerMessageAndListTheReaders() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob", "carol"])
            let first = try await api.sentToGroup(alice, group.id, "one")
            let second = try await api.sentToGroup(alice, group.id, "two")
            #expect(try await api.readGroup(bob, group.id, upTo: second.id).status == 204)
            #expect(try await api.readGroup(bob, group.id, upTo: first.id).status == 204, "a marker never goes back")
            #expect(try await api.readGroup(carol, group.id, upTo: first.id).status == 204)
            let page = try await api.groupMessages(alice, group.id).decode(Page<Message>.self)
            #expect(page.items.map(\.readCount) == [2, 1])
            let readers = try await api.send(
                .GET, "/v1/groups/\(group.id)/messages/\(first.id)/reads", token: carol.token)
            #expect(readers.status == 200)
            #expect(Set(try readers.decode([GroupReader].self).map(\.user.username)) == ["bob", "carol"])
            let secondReaders = try await api.send(
                .GET, "/v1/groups/\(group.id)/messages/\(second.id)/reads", token: alice.token)
            #expect(try secondReaders.decode([GroupReader].self).map(\.user.username) == ["bob"])
            #expect(try await api.readGroup(bob, group.id, upTo: "999999").status == 404)
            #expect(try await api.readGroup(bob, group.id, upTo: "x").status == 400)
            #expect(
                try await api.send(.GET, "/v1/groups/\(group.id)/messages/999999/reads", token: alice.token).status
                    == 404)
        }
    }

    @Test func aBlockedSendersMessagesAreMarkedForTheBlocker() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob", "carol"])
            try await api.follow(bob, "carol")
            try await api.follow(carol, "bob")
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: carol.token).status == 204)
            _ = try await api.sentToGroup(bob, group.id, "from bob")
            let seenByCarol = try await api.groupMessages(carol, group.id).decode(Page<Message>.self).items
            #expect(seenByCarol.map(\.fromBlocked) == [true])
            let seenByAlice = try await api.groupMessages(alice, group.id).decode(Page<Message>.self).items
            #expect(seenByAlice.map(\.fromBlocked) == [false])
            let created = try await api.allEvents(carol).compactMap { event -> Message? in
                if case .messageCreated(let message) = event.payload { return message }
                return nil
            }
            #expect(created.map(\.fromBlocked) == [true])
            // Neither may add the other (they followed each other before the block).
            let dave = try await api.register("dave")
            try await api.follow(dave, "carol")
            try await api.follow(dave, "bob")
            let carols = try await api.group(carol, ["dave"])
            let refused = try await api.groupMember(carol, .PUT, carols.id, "bob")
            #expect(refused.status == 403 && refused.errorCode == "dm_not_allowed")
            let bobs = try await api.group(bob, ["dave"])
            let refusedToo = try await api.groupMember(bob, .PUT, bobs.id, "carol")
            #expect(refusedToo.status == 403 && refusedToo.errorCode == "dm_not_allowed")
        }
    }
}
