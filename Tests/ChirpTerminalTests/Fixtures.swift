import ChirpClient
import ChirpModels
import ChirpTerminal
import Foundation
import Synchronization

/// Values for the terminal app's tests, with fixed times so frames are stable.
enum Fixtures {
    static let start = ContinuousClock.now

    static func message(
        _ id: Int, from sender: String, to recipient: String, _ text: String, state: DeliveryState,
        failure: String? = nil
    ) -> LocalMessage {
        let me = sender == "alice" ? "alice" : recipient
        var message = LocalMessage(
            Message(
                id: String(id), clientMessageId: "c\(id)", sender: sender, recipient: recipient, text: text,
                createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(id) * 60_000),
                readByRecipient: state == .read),
            viewer: me)
        message.state = state
        message.failure = failure
        return message
    }

    /// The wall-clock time of `message(id, …)`'s creation plus `minutes`.
    static func wallClock(afterMessage id: Int, minutes: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(id) * 60_000 + minutes * 60_000)
    }

    static func conversation(_ peer: String, last: String, from sender: String, unread: Int, minute: Int)
        -> ConversationSummary
    {
        ConversationSummary(
            Conversation(
                peer: User(
                    id: peer, username: peer, displayName: peer.capitalized,
                    createdAt: Timestamp(millisecondsSince1970: 0), followersCount: 1, followingCount: 1),
                lastMessage: Message(
                    id: String(minute), clientMessageId: "x\(minute)", sender: sender,
                    recipient: sender == "alice" ? peer : "alice", text: last,
                    createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(minute) * 60_000),
                    readByRecipient: false),
                unreadCount: unread))
    }

    static func tweet(_ id: Int, by author: String, _ text: String) -> TimelineEntry {
        TimelineEntry(
            Tweet(
                id: String(id), clientTweetId: "t\(id)",
                author: User(
                    id: author, username: author, displayName: author, createdAt: Timestamp(millisecondsSince1970: 0),
                    followersCount: 0, followingCount: 0),
                text: text, createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(id) * 60_000)))
    }

    static let history: [LocalMessage] = [
        message(
            1, from: "bob", to: "alice", "Hi Alice! I'm bob, the demo bot. Send me a message and I'll answer.",
            state: .received),
        message(2, from: "alice", to: "bob", "Hello bob 👋 — ça va? 你好", state: .read),
        message(3, from: "bob", to: "alice", "Try the timeline with t, and compose a tweet with c.", state: .received),
        message(4, from: "alice", to: "bob", "Sent, not yet seen", state: .delivered),
        message(5, from: "alice", to: "bob", "Acknowledged", state: .sent),
        message(6, from: "alice", to: "bob", "Still in the outbox", state: .pending),
        message(7, from: "alice", to: "bob", "Refused", state: .failed, failure: "bob does not follow you"),
    ]

    static let conversations = [
        conversation(
            "bob", last: "Try the timeline with t, and compose a tweet with c.", from: "bob", unread: 2, minute: 3),
        conversation("carol", last: "Yes! 12:30 at the usual place. 🍜", from: "alice", unread: 0, minute: 2),
        ConversationSummary(
            follower: FollowEntry(
                owner: "alice", relation: "followers",
                user: User(
                    id: "dave", username: "dave", displayName: "Dave", createdAt: Timestamp(millisecondsSince1970: 0),
                    followersCount: 0, followingCount: 1),
                position: 0)),
    ]

    /// Two message requests, the newest first.
    static let requests = [
        conversation("erin", last: "Hi! We met at the Swift meetup.", from: "erin", unread: 1, minute: 4),
        conversation("frank", last: "Buy cheap followers now!!!", from: "frank", unread: 3, minute: 1),
    ]

    static let tweets = [
        tweet(3, by: "carol", "Trying out Chirp from a terminal. Surprisingly pleasant."),
        tweet(2, by: "bob", "Beep boop. I answer direct messages, and tweet now and then. 🤖"),
        tweet(1, by: "alice", "Down the rabbit hole with Swift on Linux."),
    ]
}

/// A fake backend for `AppClient`: what the app would see, changed by the test between steps.
final class FakeBackend: Sendable {
    struct Data: Sendable {
        var messages: [LocalMessage] = []
        var conversations: [ConversationSummary] = []
        var tweets: [TimelineEntry] = []
        /// The text of each message sent, and the whole of it.
        var sent: [String] = []
        var outgoing: [AppClient.Outgoing] = []
        /// `peer id emoji` (with a `-` before the emoji when taken back), `peer id text`, `peer id`.
        var reacted: [String] = []
        var edited: [String] = []
        var unsent: [String] = []
        var searched: [String] = []
        var retried: [String] = []
        var typed: [String] = []
        var savedThemes: [Theme.Name] = []
        /// The bell settings saved, in order, and how many times the bell rang.
        var savedBells: [Bool] = []
        var bells = 0
        /// The conversations the client says are muted.
        var muted: Set<String> = []
        var loggedOut = false
        var blocked: [String] = []
        /// `username:reason` of each report.
        var reported: [String] = []
        var requests: [ConversationSummary] = []
        /// `accept peer` or `decline peer`, in order.
        var answers: [String] = []
    }

    let data = Mutex(Data())

    func client(base: AppClient = .failing) -> AppClient {
        var client = base
        client.conversations = { _ in self.data.withLock { $0.conversations } }
        client.messages = { _, limit, _ in
            self.data.withLock { data in (Array(data.messages.suffix(limit)), data.messages.count > limit) }
        }
        client.send = { _, message in
            self.data.withLock {
                $0.sent.append(message.text)
                $0.outgoing.append(message)
            }
        }
        client.react = { peer, id, emoji, remove in
            self.data.withLock { $0.reacted.append("\(peer) \(id) \(remove ? "-" : "")\(emoji)") }
        }
        client.edit = { peer, id, text in self.data.withLock { $0.edited.append("\(peer) \(id) \(text)") } }
        client.unsend = { peer, id in self.data.withLock { $0.unsent.append("\(peer) \(id)") } }
        client.retry = { id in self.data.withLock { $0.retried.append(id) } }
        client.typing = { peer in self.data.withLock { $0.typed.append(peer) } }
        client.timeline = { self.data.withLock { $0.tweets } }
        client.saveTheme = { theme in self.data.withLock { $0.savedThemes.append(theme) } }
        client.saveBell = { on in self.data.withLock { $0.savedBells.append(on) } }
        client.bell = { self.data.withLock { $0.bells += 1 } }
        client.mutedConversations = { self.data.withLock { $0.muted } }
        client.logout = { self.data.withLock { $0.loggedOut = true } }
        client.block = { username in self.data.withLock { $0.blocked.append(username) } }
        client.report = { username, reason in
            self.data.withLock { $0.reported.append("\(username):\(reason.rawValue)") }
        }
        client.requests = { _ in self.data.withLock { $0.requests } }
        client.answerRequest = { peer, accept in
            self.data.withLock { data in
                data.answers.append("\(accept ? "accept" : "decline") \(peer)")
                data.requests.removeAll { $0.peerName == peer }
            }
        }
        client.now = { Fixtures.start }
        return client
    }
}
