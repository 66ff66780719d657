import ChirpModels
import Foundation
import Testing

@Suite("Direct messages")
struct MessageTests {
    @Test func dmNeedsAFollowOrAnEarlierMessage() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let denied = try await api.sendMessage(alice, to: "bob", "hi bob")
            #expect(denied.status == 403 && denied.errorCode == "dm_not_allowed")
            // Bob follows Alice, so Alice may write to Bob …
            try await api.follow(bob, "alice")
            #expect(try await api.sendMessage(alice, to: "bob", "hi bob").status == 201)
            // … and Bob, who has been written to, may answer though Alice does not follow him.
            #expect(try await api.sendMessage(bob, to: "alice", "hello alice").status == 201)
            let carol = try await api.register("carol")
            #expect(try await api.sendMessage(carol, to: "alice", "spam").status == 403)
            let selfMessage = try await api.sendMessage(alice, to: "alice", "note to self")
            #expect(selfMessage.status == 422)
            let ghost = try await api.sendMessage(alice, to: "ghost", "anyone?")
            #expect(ghost.status == 404 && ghost.errorCode == "user_not_found")
        }
    }

    @Test func sendsAreIdempotentByClientId() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let first = try await api.sendMessage(alice, to: "bob", "once", clientId: "c-1")
            #expect(first.status == 201)
            let replay = try await api.sendMessage(alice, to: "bob", "once", clientId: "c-1")
            #expect(replay.status == 200)
            #expect(try replay.decode(Message.self) == first.decode(Message.self))
            let reused = try await api.sendMessage(alice, to: "bob", "twice", clientId: "c-1")
            #expect(reused.status == 409 && reused.errorCode == "client_id_reused")
            #expect(try await api.messages(bob, with: "alice").items.count == 1)
            #expect(try await api.allEvents(bob).filter { $0.type == "message.created" }.count == 1)
            let badId = try await api.sendMessage(alice, to: "bob", "x", clientId: "bad%20id")
            #expect(badId.status == 400)
            let longId = try await api.sendMessage(alice, to: "bob", "x", clientId: String(repeating: "a", count: 65))
            #expect(longId.status == 400)
        }
    }

    @Test func textIsTrimmedCheckedAndStoredExactly() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let unicode = "Grüße 👩‍👩‍👧 日本語 e\u{301} \u{200F}rtl \"quotes\" \\ back\nslash"
            let sent: Message = try await api.sendMessage(alice, to: "bob", "  \(unicode)\n\t ").decode()
            #expect(sent.text == unicode)
            #expect(try await api.messages(bob, with: "alice").items.last?.text == unicode)
            let blank = try await api.sendMessage(alice, to: "bob", " \n\t ")
            #expect(blank.status == 422 && blank.errorCode == "empty_text")
            let longest = String(repeating: "é", count: 10_000)
            #expect(try await api.sendMessage(alice, to: "bob", longest).status == 201)
            let tooLong = try await api.sendMessage(alice, to: "bob", longest + "x")
            #expect(tooLong.status == 422 && tooLong.errorCode == "text_too_long")
        }
    }

    @Test func historyPagesBackAndForthWithoutSkipsOrRepeats() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            var sent: [String] = []
            for index in 0..<23 {
                let from = index % 3 == 1 ? bob : alice
                let to = index % 3 == 1 ? "alice" : "bob"
                sent.append(try await api.sendMessage(from, to: to, "message \(index)").decode(Message.self).id)
            }
            // Backwards from the newest.
            var backwards: [String] = []
            var page = try await api.messages(alice, with: "bob", query: "?limit=5")
            backwards = page.items.map(\.id)
            while let cursor = page.nextCursor {
                page = try await api.messages(alice, with: "bob", query: "?limit=5&before=\(cursor)")
                #expect(page.items.map(\.id) == page.items.map(\.id).sorted { Int($0)! < Int($1)! })
                backwards = page.items.map(\.id) + backwards
            }
            #expect(backwards == sent)
            // Forwards from the oldest.
            var forwards: [String] = []
            var after = "0"
            page = try await api.messages(bob, with: "alice", query: "?limit=7&before=\(sent[1])")
            forwards = page.items.map(\.id)
            after = forwards.last!
            while true {
                page = try await api.messages(bob, with: "alice", query: "?limit=7&after=\(after)")
                forwards += page.items.map(\.id)
                guard let next = page.nextCursor else { break }
                after = next
            }
            #expect(forwards == sent)
            let bad = try await api.send(.GET, "/v1/conversations/bob/messages?before=abc", token: alice.token)
            #expect(bad.status == 400)
            let badLimit = try await api.send(.GET, "/v1/conversations/bob/messages?limit=101", token: alice.token)
            #expect(badLimit.status == 400)
        }
    }

    @Test func conversationsUnreadCountsAndReadMarkers() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let carol = try await api.register("carol")
            try await api.follow(alice, "bob")
            try await api.follow(alice, "carol")
            var bobIds: [String] = []
            for index in 0..<3 {
                bobIds.append(try await api.sendMessage(bob, to: "alice", "from bob \(index)").decode(Message.self).id)
            }
            _ = try await api.sendMessage(carol, to: "alice", "from carol")
            var list: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: alice.token).decode()
            #expect(list.items.map(\.peer.username) == ["carol", "bob"])
            #expect(list.items.map(\.unreadCount) == [1, 3])
            #expect(list.items.last?.lastMessage?.text == "from bob 2")

            let read = try await api.send(
                .POST, "/v1/conversations/bob/read", token: alice.token, json: MarkReadRequest(upTo: bobIds[1]))
            #expect(read.status == 204)
            list = try await api.send(.GET, "/v1/conversations", token: alice.token).decode()
            #expect(list.items.map(\.unreadCount) == [1, 1])
            let history = try await api.messages(bob, with: "alice")
            #expect(history.items.map(\.readByRecipient) == [true, true, false])

            let receipts = try await api.allEvents(bob).compactMap { event -> ReadReceipt? in
                if case .messageRead(let receipt) = event.payload { return receipt }
                return nil
            }
            #expect(receipts == [ReadReceipt(reader: "alice", peer: "bob", upTo: bobIds[1])])
            // Reading again changes nothing and tells nobody.
            _ = try await api.send(
                .POST, "/v1/conversations/bob/read", token: alice.token, json: MarkReadRequest(upTo: bobIds[1]))
            #expect(try await api.allEvents(bob).filter { $0.type == "message.read" }.count == 1)
            // Bob's view: one conversation, nothing unread (his own messages do not count).
            let bobList: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: bob.token).decode()
            #expect(bobList.items.map(\.unreadCount) == [0])

            let unknown = try await api.send(
                .POST, "/v1/conversations/bob/read", token: alice.token, json: MarkReadRequest(upTo: "999999"))
            #expect(unknown.status == 404)
            let carolsMessage = try await api.messages(alice, with: "carol").items[0].id
            let wrongConversation = try await api.send(
                .POST, "/v1/conversations/bob/read", token: alice.token, json: MarkReadRequest(upTo: carolsMessage))
            #expect(wrongConversation.status == 404)
            let garbage = try await api.send(
                .POST, "/v1/conversations/bob/read", token: alice.token, raw: #"{"upTo":"x"}"#)
            #expect(garbage.status == 400)
        }
    }

    @Test func conversationListPages() async throws {
        try await TestServer.run { api in
            let hub = try await api.register("hub")
            var peers: [String] = []
            for index in 0..<7 {
                let peer = try await api.register("peer\(index)")
                try await api.follow(hub, peer.username)
                _ = try await api.sendMessage(peer, to: "hub", "hi from \(index)")
                peers.append(peer.username)
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page: Page<Conversation> = try await api.send(
                    .GET, "/v1/conversations?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""), token: hub.token
                ).decode()
                seen += page.items.map(\.peer.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == peers.reversed())
        }
    }

    @Test func typingReachesALongPollingPeerWithoutASeq() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            // Typing is live only: one sent before the long-poll is listening is gone, so keep
            // typing until the poll answers (a loaded machine may take a while to reach it).
            let result = try await api.liveEvents(bob, since: 1) {
                try await api.send(.POST, "/v1/conversations/bob/typing", token: alice.token)
            }
            let notice = try #require(result.events.first)
            #expect(notice.seq == nil && notice.type == "typing")
            #expect(notice.payload == .typing(TypingNotice(from: "alice")))
            #expect(result.lastSeq == 0)
            #expect(try await api.allEvents(bob).isEmpty, "typing is never stored")
            let denied = try await api.send(.POST, "/v1/conversations/alice/typing", token: bob.token)
            #expect(denied.status == 403)
        }
    }

    @Test func directMessagesAreRateLimitedPerUser() async throws {
        let configuration = TestServer.configuration { $0.messageRateLimit = 3 }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for index in 0..<3 {
                #expect(try await api.sendMessage(alice, to: "bob", "m\(index)", clientId: "m\(index)").status == 201)
            }
            // A replay is not a new message and is not refused.
            #expect(try await api.sendMessage(alice, to: "bob", "m0", clientId: "m0").status == 200)
            let limited = try await api.sendMessage(alice, to: "bob", "one too many")
            #expect(limited.status == 429 && limited.errorCode == "rate_limited")
            #expect(limited.headers.first(name: "Retry-After").flatMap(Int.init) != nil)
            // Someone else is not affected.
            #expect(try await api.sendMessage(bob, to: "alice", "still fine").status == 201)
        }
        let unlimited = TestServer.configuration {
            $0.messageRateLimit = 3
            $0.rateLimitsEnabled = false
        }
        try await TestServer.run(unlimited) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for index in 0..<6 {
                #expect(try await api.sendMessage(alice, to: "bob", "m\(index)").status == 201)
            }
        }
    }
}
