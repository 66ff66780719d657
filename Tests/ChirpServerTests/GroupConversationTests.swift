import ChirpModels
import Foundation
import Testing

/// Groups in the conversation list (API.md part 3): listed with direct conversations by their
/// last message (empty ones: `EmptyGroupConversationTests`), group requests apart with accept and decline, pins and mutes, over real
/// sockets on SQLite (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group conversations")
struct GroupConversationTests {
    static func list(_ api: APIHarness, _ viewer: Session, query: String = "") async throws -> Page<Conversation> {
        let reply = try await api.send(.GET, "/v1/conversations\(query)", token: viewer.token)
        try #require(reply.status == 200, "list: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    /// Each conversation as `@peer` or `#title`.
    static func names(_ api: APIHarness, _ viewer: Session, query: String = "") async throws -> [String] {
        try await list(api, viewer, query: query).items.map {
            $0.group.map { "#\($0.title)" } ?? "@\($0.peer.username)"
        }
    }

    @Test func groupsAreListedWithDirectConversationsByTheirLastMessage() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let empty = try await api.group(alice, ["bob"], title: "Empty")
            let team = try await api.group(alice, ["bob", "carol"], title: "Team")
            #expect(try await Self.names(api, bob) == ["#Team", "#Empty"], "groups are listed from their creation")
            _ = try await api.sentToGroup(alice, team.id, "one")
            #expect(try await api.sendMessage(alice, to: "bob", "direct").status == 201)
            _ = try await api.sentToGroup(carol, team.id, "two")
            #expect(try await Self.names(api, bob) == ["#Team", "@alice", "#Empty"])
            let first = try #require(try await Self.list(api, bob).items.first)
            #expect(
                first.kind == "group" && first.group?.id == team.id && first.lastMessage?.text == "two"
                    && first.unreadCount == 2)
            let raw = try await api.send(.GET, "/v1/conversations?limit=1", token: bob.token)
            #expect(raw.text.contains(#""kind":"group""#) && !raw.text.contains(#""peer""#))
            let next = try raw.decode(Page<Conversation>.self).nextCursor
            let second = try await Self.list(api, bob, query: "?limit=1&cursor=\(try #require(next))")
            #expect(second.items.map(\.peer.username) == ["alice"] && second.nextCursor != nil)
            #expect(try await api.readGroup(bob, team.id, upTo: try #require(first.lastMessage).id).status == 204)
            #expect(try await Self.list(api, bob).items.first?.unreadCount == 0)
            #expect(
                try await Self.names(api, alice) == ["#Team", "@bob", "#\(empty.title)"],
                "\(empty.title) has no message yet")
        }
    }

    @Test func aGroupRequestIsListedApartUntilAcceptedOrDeclined() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let dave = try await api.register("dave")
            #expect(
                try await api.send(.PATCH, "/v1/me/settings", token: dave.token, json: ["messageRequests": "everyone"])
                    .status == 200)
            let team = try await api.group(alice, ["bob", "dave"], title: "Team")
            let other = try await api.group(alice, ["dave"], title: "Other")
            _ = try await api.sentToGroup(alice, team.id, "welcome")
            _ = try await api.sentToGroup(members[0], team.id, "hi")
            _ = try await api.sentToGroup(alice, other.id, "psst")
            #expect(try await Self.names(api, dave) == [])
            let requests = try await Self.list(api, dave, query: "?requests=true")
            #expect(
                requests.items.map { $0.group?.title } == ["Other", "Team"] && requests.items.allSatisfy(\.request))
            #expect(try await api.send(.POST, "/v1/groups/\(team.id)/accept", token: dave.token).status == 204)
            let again = try await api.send(.POST, "/v1/groups/\(team.id)/accept", token: dave.token)
            #expect(again.status == 404 && again.errorCode == "request_not_found")
            #expect(try await Self.names(api, dave) == ["#Team"])
            #expect(try await Self.names(api, dave, query: "?requests=true") == ["#Other"])
            let accepted = try await api.allEvents(dave).compactMap { event -> Conversation? in
                if case .conversationUpdated(let conversation) = event.payload { return conversation }
                return nil
            }
            #expect(accepted.map(\.group?.id) == [team.id] && accepted.allSatisfy { !$0.request })

            #expect(try await api.send(.DELETE, "/v1/groups/\(other.id)/request", token: dave.token).status == 204)
            #expect(try await Self.names(api, dave, query: "?requests=true") == [])
            #expect(try await api.getGroup(dave, other.id).status == 404)
            #expect(
                try await api.groupMessages(dave, other.id).status == 404, "a declined group leaves no history behind")
            let lastTwo = try await api.allEvents(dave).suffix(2).map(\.payload)
            #expect(lastTwo.first == .groupRemoved(GroupRemovedNotice(group: other.id)))
            guard case .conversationUpdated(let declined) = lastTwo.last else {
                Issue.record("no conversation.updated for the decline")
                return
            }
            #expect(declined.declined && declined.group?.id == other.id)
            #expect(
                try await api.getGroup(alice, other.id).decode(Group.self).members.map(\.user.username) == ["alice"])
            let notPending = try await api.send(.DELETE, "/v1/groups/\(team.id)/request", token: members[0].token)
            #expect(notPending.status == 404 && notPending.errorCode == "request_not_found")
        }
    }

    @Test func aPendingRequestSendsNoReadsOrTyping() async throws {
        try await TestServer.run { api in
            let (alice, _) = try await api.people("alice", ["bob"])
            let dave = try await api.register("dave")
            #expect(
                try await api.send(.PATCH, "/v1/me/settings", token: dave.token, json: ["messageRequests": "everyone"])
                    .status == 200)
            let group = try await api.group(alice, ["bob", "dave"])
            let message = try await api.sentToGroup(alice, group.id, "welcome")
            #expect(try await api.readGroup(dave, group.id, upTo: message.id).status == 204)
            #expect(try await api.send(.POST, "/v1/groups/\(group.id)/typing", token: dave.token).status == 204)
            let reads = { try await api.allEvents(alice).filter { $0.type == EventType.messageRead }.count }
            #expect(try await reads() == 0, "no read receipt while the request is pending")
            #expect(
                try await Self.list(api, dave, query: "?requests=true").items.first?.unreadCount == 0,
                "the marker moved")
            #expect(try await api.send(.POST, "/v1/groups/\(group.id)/accept", token: dave.token).status == 204)
            let next = try await api.sentToGroup(alice, group.id, "glad you're here")
            #expect(try await api.readGroup(dave, group.id, upTo: next.id).status == 204)
            #expect(try await reads() == 1)
        }
    }

    @Test func groupsArePinnedAndMutedAsDirectConversations() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let bob = members[0]
            let team = try await api.group(alice, ["bob"], title: "Team")
            _ = try await api.sentToGroup(alice, team.id, "one")
            #expect(try await api.sendMessage(alice, to: "bob", "direct").status == 201)
            #expect(try await Self.names(api, bob) == ["@alice", "#Team"])
            #expect(try await api.send(.PUT, "/v1/groups/\(team.id)/pin", token: bob.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/groups/\(team.id)/pin", token: bob.token).status == 204, "idempotent")
            #expect(try await Self.names(api, bob) == ["#Team", "@alice"])
            #expect(try await api.send(.PUT, "/v1/conversations/alice/pin", token: bob.token).status == 204)
            #expect(
                try await Self.names(api, bob) == ["@alice", "#Team"], "most recently pinned first, direct or group")
            #expect(try await api.send(.PUT, "/v1/groups/\(team.id)/mute", token: bob.token).status == 204)
            let listed = try await Self.list(api, bob).items
            #expect(listed.map(\.pinned) == [true, true] && listed.map(\.muted) == [false, true])
            #expect(try await api.send(.DELETE, "/v1/groups/\(team.id)/pin", token: bob.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/groups/\(team.id)/mute", token: bob.token).status == 204)
            #expect(try await Self.list(api, bob).items.map(\.muted) == [false, false])
            let updates = try await api.allEvents(bob).filter { $0.type == EventType.conversationUpdated }
            #expect(updates.count == 5, "one conversation.updated per change, none for a repeat")
            #expect(try await api.send(.PUT, "/v1/groups/999999/pin", token: bob.token).status == 404)
        }
    }

    @Test func pinnedGroupsCountTowardTheTenPins() async throws {
        try await TestServer.run { api in
            let names = (1...10).map { "peer\($0)" }
            let (alice, _) = try await api.people("alice", names)
            let group = try await api.group(alice, ["peer1"])
            _ = try await api.sentToGroup(alice, group.id, "hi")
            #expect(try await api.send(.PUT, "/v1/groups/\(group.id)/pin", token: alice.token).status == 204)
            for name in names { #expect(try await api.sendMessage(alice, to: name, "hi").status == 201) }
            for name in names.prefix(9) {
                #expect(try await api.send(.PUT, "/v1/conversations/\(name)/pin", token: alice.token).status == 204)
            }
            let refused = try await api.send(.PUT, "/v1/conversations/peer10/pin", token: alice.token)
            #expect(refused.status == 409 && refused.errorCode == "too_many_pinned")
        }
    }
}
