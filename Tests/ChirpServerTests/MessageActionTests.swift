import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// Reactions, replies, edits and unsends (API.md part 2, "Message actions"), over HTTP on the
/// suite's database (SQLite, or PostgreSQL with CHIRP_TEST_DATABASE=postgres).
@Suite("Message actions")
struct MessageActionTests {
    /// Alice and Bob, who may write to each other (Bob follows Alice), and Carol.
    static func people(_ api: APIHarness) async throws -> (alice: Session, bob: Session, carol: Session) {
        let alice = try await api.register("alice")
        let bob = try await api.register("bob")
        let carol = try await api.register("carol")
        try await api.follow(bob, "alice")
        try await api.follow(carol, "alice")
        return (alice, bob, carol)
    }

    @Test func repliesLinkToAMessageOfTheSameConversation() async throws {
        try await TestServer.run { api in
            let (alice, bob, carol) = try await Self.people(api)
            let first = try await api.sent(alice, to: "bob", "lunch?")
            let elsewhere = try await api.sent(alice, to: "carol", "hi carol")
            let reply = try await api.sendMessage(bob, to: "alice", "yes", replyTo: first.id)
            #expect(reply.status == 201)
            let answer: Message = try reply.decode()
            #expect(answer.replyTo == first.id)
            #expect(try await api.message(alice, with: "bob", id: answer.id)?.replyTo == first.id)
            let created = try await api.allEvents(alice).compactMap { event -> Message? in
                if case .messageCreated(let message) = event.payload, message.id == answer.id { return message }
                return nil
            }
            #expect(created.map(\.replyTo) == [first.id])
            for bad in [elsewhere.id, "999999", "abc", "", "-1"] {
                let refused = try await api.sendMessage(bob, to: "alice", "no", replyTo: bad)
                #expect(refused.status == 422 && refused.errorCode == "invalid_reply", "replyTo \(bad)")
            }
            let ghost = try await api.sendMessage(bob, to: "ghost", "x", replyTo: first.id)
            #expect(ghost.status == 404)
            // Carol is in neither conversation of `first`.
            #expect(
                try await api.sendMessage(carol, to: "alice", "me too", replyTo: first.id).errorCode == "invalid_reply")
            #expect(try await api.sent(alice, to: "bob", "plain").replyTo == nil)
        }
    }

    @Test func reactionsAreIdempotentAndListUsersInOrder() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "good news")
            #expect(try await api.react(bob, with: "alice", message.id, "👍").status == 204)
            #expect(try await api.react(bob, with: "alice", message.id, "👍").status == 204)
            #expect(try await api.react(alice, with: "bob", message.id, "👍").status == 204)
            let family = "👩‍👩‍👧"
            #expect(try await api.react(alice, with: "bob", message.id, family).status == 204)
            var stored = try #require(try await api.message(bob, with: "alice", id: message.id))
            #expect(
                stored.reactions == [
                    MessageReaction(emoji: "👍", count: 2, users: ["bob", "alice"]),
                    MessageReaction(emoji: family, count: 1, users: ["alice"]),
                ])
            // The conversation list carries them too.
            let list: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: bob.token).decode()
            #expect(list.items.first?.lastMessage?.reactions.count == 2)
            #expect(try await api.react(bob, with: "alice", message.id, "👍", remove: true).status == 204)
            #expect(try await api.react(bob, with: "alice", message.id, "👍", remove: true).status == 204)
            #expect(try await api.react(bob, with: "alice", message.id, "🎉", remove: true).status == 204)
            stored = try #require(try await api.message(alice, with: "bob", id: message.id))
            #expect(
                stored.reactions == [
                    MessageReaction(emoji: "👍", count: 1, users: ["alice"]),
                    MessageReaction(emoji: family, count: 1, users: ["alice"]),
                ])
            // Four changes, each one message.updated on both streams; the repeats added none.
            for viewer in [alice, bob] {
                let updates = try await api.allEvents(viewer).filter { $0.type == "message.updated" }
                #expect(updates.count == 4)
                if case .messageUpdated(let last) = updates.last?.payload {
                    #expect(last == stored)
                } else {
                    Issue.record("no update")
                }
            }
        }
    }

    @Test func reactionsAreOneGraphemeAndAtMostTwentyEmoji() async throws {
        try await TestServer.run { api in
            let (alice, bob, carol) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "react to me")
            for bad in ["ab", " ", "👍👍", "\u{7}"] {
                let refused = try await api.react(bob, with: "alice", message.id, bad)
                #expect(
                    refused.status == 422 && refused.errorCode == "invalid_reaction",
                    "\(bad.unicodeScalars.map(\.value))")
            }
            let emoji = Array("😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙🥲😚🙂").map(String.init)
            for item in emoji { #expect(try await api.react(bob, with: "alice", message.id, item).status == 204) }
            let tooMany = try await api.react(alice, with: "bob", message.id, "🤔")
            #expect(tooMany.status == 422 && tooMany.errorCode == "too_many_reactions")
            // An emoji already there still takes another user.
            #expect(try await api.react(alice, with: "bob", message.id, "😀").status == 204)
            #expect(try await api.react(bob, with: "alice", "999999", "👍").status == 404)
            #expect(try await api.react(bob, with: "ghost", message.id, "👍").status == 404)
            // Carol is not in the conversation: to her the message does not exist.
            #expect(try await api.react(carol, with: "alice", message.id, "👍").errorCode == "message_not_found")
        }
    }

    @Test func onlyTheSenderEditsWithinTheWindow() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "see you at 5")
            let notSender = try await api.edit(bob, with: "alice", message.id, "at 6")
            #expect(notSender.status == 403 && notSender.errorCode == "not_sender")
            let blank = try await api.edit(alice, with: "bob", message.id, "   ")
            #expect(blank.status == 422 && blank.errorCode == "empty_text")
            #expect(
                try await api.edit(alice, with: "bob", message.id, String(repeating: "x", count: 10_001)).status == 422)
            let edited = try await api.edit(alice, with: "bob", message.id, "  see you at 6 ")
            #expect(edited.status == 200)
            let after: Message = try edited.decode()
            #expect(after.text == "see you at 6" && after.editedAt != nil && after.id == message.id)
            #expect(try await api.message(bob, with: "alice", id: message.id) == after)
            for viewer in [alice, bob] {
                let updates = try await api.allEvents(viewer).filter { $0.type == "message.updated" }
                #expect(updates.map(\.payload) == [.messageUpdated(after)])
            }
            #expect(try await api.edit(alice, with: "bob", "999999", "x").status == 404)
        }
        var closed = TestServer.configuration()
        closed.messageEditWindow = .zero
        try await TestServer.run(closed) { api in
            let (alice, _, _) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "too late")
            try await Task.sleep(for: .milliseconds(20))
            let late = try await api.edit(alice, with: "bob", message.id, "changed")
            #expect(late.status == 403 && late.errorCode == "edit_window_closed")
        }
    }

    @Test func unsendLeavesATombstoneForBoth() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "oops wrong chat")
            #expect(try await api.react(bob, with: "alice", message.id, "😮").status == 204)
            let notSender = try await api.unsend(bob, with: "alice", message.id)
            #expect(notSender.status == 403 && notSender.errorCode == "not_sender")
            #expect(try await api.unsend(alice, with: "bob", message.id).status == 204)
            #expect(try await api.unsend(alice, with: "bob", message.id).status == 204)
            for (viewer, peer) in [(alice, "bob"), (bob, "alice")] {
                let stored = try #require(try await api.message(viewer, with: peer, id: message.id))
                #expect(stored.deleted && stored.text.isEmpty && stored.reactions.isEmpty && stored.media.isEmpty)
                #expect(stored.createdAt == message.createdAt && stored.sender == "alice" && stored.recipient == "bob")
                let deletions = try await api.allEvents(viewer).filter { $0.type == "message.deleted" }
                #expect(
                    deletions.map(\.payload) == [
                        .messageDeleted(MessageDeletedNotice(id: message.id, sender: "alice", recipient: "bob"))
                    ])
            }
            let edit = try await api.edit(alice, with: "bob", message.id, "fixed")
            #expect(edit.status == 409 && edit.errorCode == "message_deleted")
            let react = try await api.react(bob, with: "alice", message.id, "👍")
            #expect(react.status == 409 && react.errorCode == "message_deleted")
            #expect(try await api.react(bob, with: "alice", message.id, "😮", remove: true).status == 204)
            #expect(try await api.unsend(alice, with: "bob", "999999").status == 404)
        }
    }

    @Test func aBlockedPairCannotReactReplyOrEdit() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await Self.people(api)
            let fromAlice = try await api.sent(alice, to: "bob", "hello")
            let fromBob = try await api.sent(bob, to: "alice", "hi")
            #expect(try await api.send(.PUT, "/v1/users/alice/block", token: bob.token).status == 204)
            // Alice learns nothing of the block; Bob is told he blocked her.
            #expect(try await api.react(alice, with: "bob", fromBob.id, "👍").errorCode == "dm_not_allowed")
            #expect(try await api.react(bob, with: "alice", fromAlice.id, "👍").errorCode == "blocked")
            #expect(try await api.sendMessage(alice, to: "bob", "answer", replyTo: fromBob.id).status == 403)
            #expect(try await api.edit(alice, with: "bob", fromAlice.id, "edited").status == 403)
            // Unsending what one sent stays possible.
            #expect(try await api.unsend(alice, with: "bob", fromAlice.id).status == 204)
        }
    }

    @Test func changesReachListenersLive() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await Self.people(api)
            let message = try await api.sent(alice, to: "bob", "live")
            let head = try await api.events(bob).lastSeq
            let poll = Task { try await api.events(bob, since: head, wait: 20) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await api.react(alice, with: "bob", message.id, "🔥").status == 204)
            let woken = try await poll.value
            #expect(woken.events.map(\.type) == ["message.updated"])
            let unsent = Task { try await api.events(bob, since: woken.lastSeq, wait: 20) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await api.unsend(alice, with: "bob", message.id).status == 204)
            #expect(try await unsent.value.events.map(\.type) == ["message.deleted"])
        }
    }
}
