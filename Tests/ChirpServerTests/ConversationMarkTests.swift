import ChirpModels
import Foundation
import NIOHTTP1
import Testing

/// Pinned and muted conversations (API.md part 3) over real sockets, on SQLite (and on
/// PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Pinned and muted conversations")
struct ConversationMarkTests {
    /// Registers `viewer` and `peers`; each peer, followed by the viewer, writes to the viewer
    /// in turn, so the viewer's list is the peers newest first.
    static func conversations(_ api: APIHarness, _ viewer: String, with peers: [String]) async throws -> Session {
        let session = try await api.register(viewer)
        for peer in peers {
            let other = try await api.register(peer)
            try await api.follow(session, peer)
            try #require(try await api.sendMessage(other, to: viewer, "hi from \(peer)").status == 201)
        }
        return session
    }

    static func list(_ api: APIHarness, _ viewer: Session, query: String = "") async throws -> Page<Conversation> {
        let reply = try await api.send(.GET, "/v1/conversations\(query)", token: viewer.token)
        try #require(reply.status == 200, "list: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    static func peers(_ api: APIHarness, _ viewer: Session) async throws -> [String] {
        try await list(api, viewer).items.map(\.peer.username)
    }

    static func mark(_ api: APIHarness, _ viewer: Session, _ method: HTTPMethod, _ peer: String, _ mark: String)
        async throws -> Reply
    {
        try await api.send(method, "/v1/conversations/\(peer)/\(mark)", token: viewer.token)
    }

    @Test func pinnedConversationsComeFirstMostRecentlyPinnedFirst() async throws {
        try await TestServer.run { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob", "cat", "dan"])
            #expect(try await Self.peers(api, ann) == ["dan", "cat", "bob"])
            #expect(try await Self.mark(api, ann, .PUT, "bob", "pin").status == 204)
            #expect(try await Self.mark(api, ann, .PUT, "cat", "pin").status == 204)
            let page = try await Self.list(api, ann)
            #expect(page.items.map(\.peer.username) == ["cat", "bob", "dan"])
            #expect(page.items.map(\.pinned) == [true, true, false])
            #expect(page.items.allSatisfy { $0.kind == "direct" && !$0.request && !$0.muted })

            #expect(try await Self.mark(api, ann, .PUT, "BOB", "pin").status == 204, "idempotent, any case")
            #expect(try await Self.peers(api, ann) == ["cat", "bob", "dan"], "pinning again does not move it")
            #expect(try await Self.mark(api, ann, .DELETE, "cat", "pin").status == 204)
            #expect(try await Self.mark(api, ann, .DELETE, "cat", "pin").status == 204, "idempotent")
            #expect(
                try await Self.peers(api, ann) == ["bob", "dan", "cat"],
                "an unpinned one goes back to its place by recency")
        }
    }

    @Test func aMutedConversationStillCountsUnreadMessages() async throws {
        try await TestServer.run { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob"])
            #expect(try await Self.mark(api, ann, .PUT, "bob", "mute").status == 204)
            #expect(try await Self.mark(api, ann, .PUT, "bob", "mute").status == 204, "idempotent")
            let bob = try #require(try await api.login("bob").decode(AuthResponse.self))
            #expect(
                try await api.sendMessage(Session(user: bob.user, token: bob.token), to: "ann", "still there?").status
                    == 201)
            let muted = try #require(try await Self.list(api, ann).items.first)
            #expect(muted.muted && !muted.pinned && muted.unreadCount == 2)
            #expect(try await Self.mark(api, ann, .DELETE, "bob", "mute").status == 204)
            #expect(try await Self.mark(api, ann, .DELETE, "bob", "mute").status == 204, "idempotent")
            #expect(try await Self.list(api, ann).items.first?.muted == false)
        }
    }

    @Test func atMostTenPinned() async throws {
        try await TestServer.run { api in
            let names = (1...11).map { "peer\($0)" }
            let ann = try await Self.conversations(api, "ann", with: names)
            for name in names.prefix(10) { #expect(try await Self.mark(api, ann, .PUT, name, "pin").status == 204) }
            let refused = try await Self.mark(api, ann, .PUT, "peer11", "pin")
            #expect(refused.status == 409 && refused.errorCode == "too_many_pinned")
            #expect(
                try await Self.mark(api, ann, .PUT, "peer3", "pin").status == 204,
                "a pinned one again is still idempotent")
            #expect(try await Self.mark(api, ann, .PUT, "peer11", "mute").status == 204, "mutes are not pins")
            #expect(try await Self.mark(api, ann, .DELETE, "peer1", "pin").status == 204)
            #expect(try await Self.mark(api, ann, .PUT, "peer11", "pin").status == 204)
            let page = try await Self.list(api, ann)
            #expect(
                page.items.filter(\.pinned).map(\.peer.username) == ["peer11"] + (2...10).reversed().map { "peer\($0)" }
            )
            #expect(page.items.map(\.peer.username).last == "peer1")
        }
    }

    @Test func eachChangeIsOneEventToTheViewerOnly() async throws {
        try await TestServer.run { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob"])
            let bob = try #require(try await api.login("bob").decode(AuthResponse.self))
            let bobBefore = try await api.allEvents(Session(user: bob.user, token: bob.token)).count
            for (method, mark) in [
                (HTTPMethod.PUT, "pin"), (.PUT, "pin"), (.PUT, "mute"), (.DELETE, "pin"), (.DELETE, "mute"),
                (.DELETE, "mute"),
            ] {
                #expect(try await Self.mark(api, ann, method, "bob", mark).status == 204)
            }
            let updates: [Conversation] = try await api.allEvents(ann).compactMap {
                if case .conversationUpdated(let conversation) = $0.payload { return conversation }
                return nil
            }
            #expect(
                updates.map { [$0.pinned, $0.muted] } == [
                    [true, false], [true, true], [false, true], [false, false],
                ],
                "one event per change, none for a repeat")
            #expect(
                updates.allSatisfy {
                    $0.peer.username == "bob" && $0.lastMessage?.text == "hi from bob" && $0.unreadCount == 1
                })
            #expect(try await api.allEvents(Session(user: bob.user, token: bob.token)).count == bobBefore)
        }
    }

    @Test func unknownPeersAndConversationsThatDoNotExistAre404() async throws {
        try await TestServer.run { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob"])
            _ = try await api.register("cat")
            for mark in ["pin", "mute"] {
                for method in [HTTPMethod.PUT, .DELETE] {
                    let ghost = try await Self.mark(api, ann, method, "ghost", mark)
                    #expect(ghost.status == 404 && ghost.errorCode == "user_not_found")
                    let impossible = try await Self.mark(api, ann, method, "no%20such!", mark)
                    #expect(impossible.status == 404 && impossible.errorCode == "user_not_found")
                    let deleted = try await Self.mark(api, ann, method, "deleted-999", mark)
                    #expect(deleted.status == 404 && deleted.errorCode == "user_not_found")
                    let stranger = try await Self.mark(api, ann, method, "cat", mark)
                    #expect(stranger.status == 404 && stranger.errorCode == "conversation_not_found")
                    let myself = try await Self.mark(api, ann, method, "ann", mark)
                    #expect(myself.status == 404 && myself.errorCode == "conversation_not_found")
                    let anonymous = try await api.send(method, "/v1/conversations/bob/\(mark)")
                    #expect(anonymous.status == 401)
                }
            }
            #expect(try await Self.list(api, ann).items.map(\.pinned) == [false])
        }
    }

    /// The first page holds every pinned conversation and then `limit` unpinned ones; the
    /// cursor walks the unpinned ones only: each conversation shows exactly once.
    @Test func pagesShowEachConversationOnce() async throws {
        try await TestServer.run { api in
            let names = (1...7).map { "peer\($0)" }
            let ann = try await Self.conversations(api, "ann", with: names)
            for name in ["peer2", "peer6", "peer4"] {
                #expect(try await Self.mark(api, ann, .PUT, name, "pin").status == 204)
            }
            var seen: [String] = []
            var page = try await Self.list(api, ann, query: "?limit=2")
            #expect(page.items.map(\.peer.username) == ["peer4", "peer6", "peer2", "peer7", "peer5"])
            seen += page.items.map(\.peer.username)
            while let cursor = page.nextCursor {
                page = try await Self.list(api, ann, query: "?limit=2&cursor=\(cursor)")
                #expect(page.items.allSatisfy { !$0.pinned } && page.items.count <= 2)
                seen += page.items.map(\.peer.username)
            }
            #expect(seen == ["peer4", "peer6", "peer2", "peer7", "peer5", "peer3", "peer1"])
        }
    }

    /// A blocked peer's conversation leaves the list, pinned or not, and comes back pinned.
    @Test func aPinnedConversationWithABlockedPeerComesBackPinned() async throws {
        try await TestServer.run { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob", "cat"])
            #expect(try await Self.mark(api, ann, .PUT, "bob", "pin").status == 204)
            #expect(try await api.send(.PUT, "/v1/users/bob/block", token: ann.token).status == 204)
            #expect(try await Self.peers(api, ann) == ["cat"])
            #expect(try await api.send(.DELETE, "/v1/users/bob/block", token: ann.token).status == 204)
            #expect(try await Self.peers(api, ann) == ["bob", "cat"])
        }
    }

    /// Deleting an account removes its own marks; the people it talked with keep theirs on
    /// its conversation (now `deleted-ID`), can read the list and can still unpin it.
    @Test func aDeletedAccountTakesItsMarksButNotOthers() async throws {
        let storage = StoredDataInspector()
        try await storage.withServer { api in
            let ann = try await Self.conversations(api, "ann", with: ["bob"])
            let bobAuth = try #require(try await api.login("bob").decode(AuthResponse.self))
            let bob = Session(user: bobAuth.user, token: bobAuth.token)
            #expect(try await Self.mark(api, ann, .PUT, "bob", "pin").status == 204)
            #expect(try await Self.mark(api, ann, .PUT, "bob", "mute").status == 204)
            #expect(try await Self.mark(api, bob, .PUT, "ann", "pin").status == 204)
            #expect(try await Self.marks(storage) == 2)
            let deletion = try await api.send(
                .DELETE, "/v1/me", token: bob.token, json: DeleteAccountRequest(password: "correct horse"))
            #expect(deletion.status == 204)
            #expect(try await Self.marks(storage) == 1, "bob's own pin is gone")

            let kept = try #require(try await Self.list(api, ann).items.first)
            let placeholder = "deleted-\(bob.user.id)"
            #expect(kept.peer.username == placeholder && kept.pinned && kept.muted)
            #expect(try await Self.mark(api, ann, .DELETE, placeholder, "pin").status == 204)
            #expect(try await Self.mark(api, ann, .DELETE, placeholder, "mute").status == 204)
            #expect(try await Self.list(api, ann).items.map { [$0.pinned, $0.muted] } == [[false, false]])
            #expect(try await Self.marks(storage) == 0, "a row with neither mark is removed")
        }
    }

    static func marks(_ storage: StoredDataInspector) async throws -> Int {
        try await storage.dump(only: "conversation_marks").split(separator: "\n").count
    }
}
