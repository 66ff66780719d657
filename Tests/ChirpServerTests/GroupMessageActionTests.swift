import ChirpModels
import Foundation
import Testing

/// Reactions, edits and unsends of group messages (API.md part 3: the direct routes' sub-paths
/// under `/v1/groups/{id}/messages/{messageId}`), each told to every member, over real sockets
/// on SQLite (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group message actions")
struct GroupMessageActionTests {
    static func path(_ group: Group, _ message: Message) -> String { "/v1/groups/\(group.id)/messages/\(message.id)" }

    static func react(
        _ api: APIHarness, _ viewer: Session, _ group: Group, _ message: Message, _ emoji: String, remove: Bool = false
    ) async throws -> Reply {
        let encoded = emoji.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? emoji
        return try await api.send(
            remove ? .DELETE : .PUT, path(group, message) + "/reactions/\(encoded)", token: viewer.token)
    }

    /// The viewer's `message.updated` and `message.deleted` events, as types.
    static func changes(_ api: APIHarness, _ viewer: Session) async throws -> [EventPayload] {
        try await api.allEvents(viewer).map(\.payload).filter {
            switch $0 {
            case .messageUpdated, .messageDeleted: true
            default: false
            }
        }
    }

    @Test func membersReactAndEveryMemberIsTold() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(alice, ["bob", "carol"])
            let message = try await api.sentToGroup(alice, group.id, "lunch?")
            #expect(try await Self.react(api, bob, group, message, "👍").status == 204)
            #expect(try await Self.react(api, bob, group, message, "👍").status == 204, "idempotent")
            #expect(try await Self.react(api, carol, group, message, "👍").status == 204)
            #expect(try await Self.react(api, carol, group, message, "👍", remove: true).status == 204)
            let bad = try await Self.react(api, bob, group, message, "ab")
            #expect(bad.status == 422 && bad.errorCode == "invalid_reaction")
            let stored = try #require(
                try await api.groupMessages(alice, group.id).decode(Page<Message>.self).items.first)
            #expect(stored.reactions == [MessageReaction(emoji: "👍", users: ["bob"])])
            for viewer in [alice, bob, carol] {
                let updates = try await Self.changes(api, viewer)
                #expect(updates.count == 3, "\(viewer.username): one message.updated per change")
                guard case .messageUpdated(let last) = updates.last else {
                    Issue.record("no update")
                    continue
                }
                #expect(last.group == group.id && last.reactions.map(\.users) == [["bob"]])
            }
            let eve = try await api.register("eve")
            #expect(try await Self.react(api, eve, group, message, "👍").status == 404)
        }
    }

    @Test func onlyTheSenderEditsAndUnsends() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let bob = members[0]
            let group = try await api.group(alice, ["bob"])
            let message = try await api.sentToGroup(alice, group.id, "draft")
            let notSender = try await api.send(
                .PATCH, Self.path(group, message), token: bob.token, json: TextBody(text: "mine"))
            #expect(notSender.status == 403 && notSender.errorCode == "not_sender")
            let edited = try await api.send(
                .PATCH, Self.path(group, message), token: alice.token, json: TextBody(text: "final"))
            #expect(edited.status == 200)
            let after: Message = try edited.decode()
            #expect(after.text == "final" && after.editedAt != nil && after.group == group.id)
            #expect(try await api.groupTexts(bob, group.id) == ["final"])
            #expect(try await api.send(.DELETE, Self.path(group, message), token: bob.token).status == 403)
            #expect(try await api.send(.DELETE, Self.path(group, message), token: alice.token).status == 204)
            #expect(
                try await api.send(.DELETE, Self.path(group, message), token: alice.token).status == 204, "idempotent")
            let tombstone = try #require(
                try await api.groupMessages(bob, group.id).decode(Page<Message>.self).items.first)
            #expect(tombstone.deleted && tombstone.text.isEmpty)
            let gone = try await Self.react(api, bob, group, message, "👍")
            #expect(gone.status == 409 && gone.errorCode == "message_deleted")
            for viewer in [alice, bob] {
                let last = try await Self.changes(api, viewer).last
                #expect(
                    last
                        == .messageDeleted(
                            MessageDeletedNotice(id: message.id, sender: "alice", recipient: "", group: group.id)))
            }
            let raw = try await api.send(.GET, "/v1/events?since=0", token: bob.token)
            #expect(raw.text.contains(#""group":"\#(group.id)","id":"\#(message.id)","recipient":null"#))
            #expect(
                !raw.text.contains("draft") && !raw.text.contains("final"),
                "the stored created and edited copies are tombstones too")
        }
    }

    @Test func aRemovedMemberActsOnNothing() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let bob = members[0]
            let group = try await api.group(alice, ["bob", "carol"])
            let mine = try await api.sentToGroup(bob, group.id, "mine")
            #expect(try await api.groupMember(bob, .DELETE, group.id, "bob").status == 204)
            #expect(try await Self.react(api, bob, group, mine, "👍").status == 404)
            #expect(try await api.send(.DELETE, Self.path(group, mine), token: bob.token).status == 404)
            let missing = try await api.send(
                .PATCH, "/v1/groups/\(group.id)/messages/999999", token: alice.token, json: TextBody(text: "x"))
            #expect(missing.status == 404 && missing.errorCode == "message_not_found")
        }
    }
}
