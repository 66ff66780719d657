import ChirpModels
import Foundation
import Testing

/// Groups with no message yet in the conversation list (issue 38): listed from the moment the
/// viewer joins, with `lastMessage: null`, placed by when they joined among direct conversations
/// and groups with messages, as requests when a stranger added them, pinned first when pinned;
/// pages walk such a mix exactly once. Over real sockets on SQLite (and on PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`).
@Suite("Empty group conversations")
struct EmptyGroupConversationTests {
    typealias List = GroupConversationTests

    /// Every conversation of the viewer, as `@peer` or `#title`, read `limit` at a time by
    /// following `nextCursor`; each page must hold `limit` items but the last.
    static func walk(_ api: APIHarness, _ viewer: Session, limit: Int) async throws -> [String] {
        var names: [String] = []
        var cursor: String?
        for _ in 0..<50 {
            let page = try await List.list(
                api, viewer, query: "?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
            names += page.items.map { $0.group.map { "#\($0.title)" } ?? "@\($0.peer.username)" }
            guard let next = page.nextCursor else { return names }
            #expect(
                page.items.filter { !$0.pinned }.count == limit,
                "a page before the last is full (pins come on top of the first)")
            cursor = next
        }
        Issue.record("the pages never ended: \(names)")
        return names
    }

    @Test func aNewGroupIsListedAtOnceForItsCreatorAndMembers() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            #expect(try await api.sendMessage(alice, to: "bob", "hi").status == 201)
            let team = try await api.group(alice, ["bob"], title: "Team")
            #expect(try await List.names(api, alice) == ["#Team", "@bob"], "the creator sees it at once, newest first")
            #expect(try await List.names(api, bob) == ["#Team", "@alice"], "so does a member")
            let item = try #require(try await List.list(api, bob).items.first)
            #expect(
                item.kind == "group" && item.group?.id == team.id && item.lastMessage == nil && item.unreadCount == 0)
            #expect(!item.request && !item.pinned && !item.muted)
            let raw = try await api.send(.GET, "/v1/conversations", token: bob.token)
            #expect(raw.text.contains(#""lastMessage":null"#))

            // Added later, after a message: listed at once, above older conversations, without
            // the message from before they joined.
            _ = try await api.sentToGroup(alice, team.id, "before carol")
            #expect(try await api.sendMessage(alice, to: "bob", "later").status == 201)
            #expect(try await api.groupMember(alice, .PUT, team.id, "carol").status == 204)
            let carols = try await List.list(api, carol).items
            #expect(
                carols.map(\.group?.id) == [team.id] && carols.first?.lastMessage == nil
                    && carols.first?.unreadCount == 0)
            #expect(try await List.names(api, bob) == ["@alice", "#Team"], "a group with a message is placed by it")

            // Leaving a group with no message the viewer saw takes it off their list.
            #expect(try await api.groupMember(carol, .DELETE, team.id, "carol").status == 204)
            #expect(try await List.names(api, carol) == [])
        }
    }

    @Test func aStrangersNewGroupIsARequestAtOnce() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let dave = try await api.register("dave")
            let erin = try await api.register("erin")
            for stranger in [dave, erin] {
                #expect(
                    try await api.send(
                        .PATCH, "/v1/me/settings", token: stranger.token, json: ["messageRequests": "everyone"]
                    ).status == 200)
            }
            let team = try await api.group(alice, ["bob", "dave"], title: "Team")
            #expect(try await List.names(api, dave) == [], "a request is left out of the list")
            let requests = try await List.list(api, dave, query: "?requests=true").items
            #expect(
                requests.map(\.group?.id) == [team.id] && requests.allSatisfy { $0.request && $0.lastMessage == nil })
            #expect(try await List.names(api, members[0]) == ["#Team"])
            #expect(try await List.names(api, alice, query: "?requests=true") == [])

            #expect(try await api.groupMember(alice, .PUT, team.id, "erin").status == 204)
            #expect(
                try await List.names(api, erin, query: "?requests=true") == ["#Team"],
                "added by a stranger: a request too")
            #expect(try await List.names(api, erin) == [])

            // `group.created` says so to those it is a request for, and to no one else.
            for (person, request) in [(dave, true), (erin, true), (members[0], false), (alice, false)] {
                let created = try await api.allEvents(person).compactMap { event -> Group? in
                    if case .groupCreated(let group) = event.payload { return group }
                    return nil
                }
                #expect(
                    created.map(\.id) == [team.id] && created.map(\.request) == [request ? true : nil],
                    "\(person.username)")
            }

            #expect(try await api.send(.POST, "/v1/groups/\(team.id)/accept", token: dave.token).status == 204)
            #expect(try await List.names(api, dave) == ["#Team"])
            #expect(try await List.names(api, dave, query: "?requests=true") == [])
            let accepted = try await api.allEvents(dave).compactMap { event -> Conversation? in
                if case .conversationUpdated(let conversation) = event.payload { return conversation }
                return nil
            }
            #expect(
                accepted.map(\.group?.id) == [team.id] && accepted.allSatisfy { !$0.request && $0.lastMessage == nil })
        }
    }

    /// Places of one sequence side by side: groups made one after the other, a group made right
    /// after a direct message, a group a message moved up, a member added after a message.
    @Test func pagesVisitAMixOfDirectConversationsAndEmptyAndBusyGroupsOnceInOrder() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let bob = members[0]
            for name in ["dan", "erin"] {
                let peer = try await api.register(name)
                try await api.follow(peer, "bob")
            }
            _ = try await api.group(alice, ["bob"], title: "G1")
            #expect(try await api.sendMessage(bob, to: "dan", "hi dan").status == 201)
            let g2 = try await api.group(alice, ["bob"], title: "G2")
            _ = try await api.group(alice, ["bob"], title: "G3")
            _ = try await api.sentToGroup(alice, g2.id, "g2 moves up")
            #expect(try await api.sendMessage(bob, to: "erin", "hi erin").status == 201)
            _ = try await api.group(alice, ["bob"], title: "G4")
            let g5 = try await api.group(alice, ["carol"], title: "G5")
            _ = try await api.sentToGroup(alice, g5.id, "before bob")
            #expect(try await api.groupMember(alice, .PUT, g5.id, "bob").status == 204)

            let expected = ["#G5", "#G4", "@erin", "#G2", "#G3", "@dan", "#G1"]
            #expect(try await List.names(api, bob) == expected)
            for limit in [1, 2, 3] {
                #expect(try await Self.walk(api, bob, limit: limit) == expected, "limit \(limit)")
            }
            let requests = try await List.list(api, bob, query: "?requests=true&limit=1")
            #expect(requests.items.isEmpty && requests.nextCursor == nil)
        }
    }

    @Test func aPinnedEmptyGroupComesFirst() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob"])
            let bob = members[0]
            let quiet = try await api.group(alice, ["bob"], title: "Quiet")
            let busy = try await api.group(alice, ["bob"], title: "Busy")
            _ = try await api.sentToGroup(alice, busy.id, "news")
            #expect(try await api.sendMessage(alice, to: "bob", "hi").status == 201)
            #expect(try await List.names(api, bob) == ["@alice", "#Busy", "#Quiet"])

            #expect(try await api.send(.PUT, "/v1/groups/\(quiet.id)/pin", token: bob.token).status == 204)
            #expect(try await api.send(.PUT, "/v1/groups/\(quiet.id)/mute", token: bob.token).status == 204)
            let listed = try await List.list(api, bob).items
            #expect(listed.map { $0.group?.title ?? $0.peer.username } == ["Quiet", "alice", "Busy"])
            #expect(listed.first.map { $0.pinned && $0.muted && $0.lastMessage == nil } == true)
            #expect(
                try await Self.walk(api, bob, limit: 1) == ["#Quiet", "@alice", "#Busy"], "the pin shows once, first")
            let updates = try await api.allEvents(bob).compactMap { event -> Conversation? in
                if case .conversationUpdated(let conversation) = event.payload { return conversation }
                return nil
            }
            #expect(updates.map(\.group?.id) == [quiet.id, quiet.id] && updates.allSatisfy { $0.lastMessage == nil })
            #expect(updates.last.map { $0.pinned && $0.muted } == true)
        }
    }
}
