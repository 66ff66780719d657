import ChirpClient
import ChirpModels
import ChirpTerminal
import Foundation

/// Group states of the terminal app, for the reference frames: the list with a pinned and
/// muted group, a group conversation (sender names, "read by N", who is typing), the
/// new-group form and a group request.
enum GroupFixtures {
    static let group = Group(
        id: "7", title: "Lunch crew", createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000),
        createdBy: "alice",
        members: ["alice", "bob", "carol"].map { name in
            GroupMember(
                user: User(
                    id: name, username: name, displayName: name.capitalized,
                    createdAt: Timestamp(millisecondsSince1970: 0),
                    followersCount: 0, followingCount: 0),
                role: name == "alice" ? .admin : .member, joinedAt: Timestamp(millisecondsSince1970: 1_795_330_800_000))
        })

    static func message(_ id: Int, from sender: String, _ text: String, readCount: Int = 0) -> LocalMessage {
        LocalMessage(
            Message(
                id: String(id), clientMessageId: "g\(id)", sender: sender, recipient: "", text: text,
                createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(id) * 60_000),
                readByRecipient: false,
                group: group.id, readCount: readCount),
            viewer: "alice")
    }

    static func conversation(pinned: Bool, muted: Bool, request: Bool = false) -> ConversationSummary {
        ConversationSummary(
            Conversation(
                peer: Conversation.noPeer,
                lastMessage: Message(
                    id: "9", clientMessageId: "g9", sender: "bob", recipient: "", text: "See you at noon?",
                    createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + 9 * 60_000), readByRecipient: false,
                    group: group.id),
                unreadCount: 1, kind: Conversation.groupKind, request: request, pinned: pinned, muted: muted,
                group: group))
    }

    static func base() -> AppState {
        var state = AppState(now: Fixtures.start)
        state.username = "alice"
        state.connection = "live"
        state.conversations = [conversation(pinned: true, muted: true)] + Fixtures.conversations
        return state
    }

    static func list() -> AppState {
        var state = base()
        state.screen = .conversations
        return state
    }

    static func groupConversation() -> AppState {
        var state = base()
        state.screen = .conversation
        state.peer = ConversationKey.group(group.id)
        state.messages = [
            message(5, from: "alice", "Lunch on Friday?", readCount: 2),
            message(6, from: "bob", "Yes!"),
            message(7, from: "carol", "Count me in 🍜"),
            message(8, from: "alice", "Booked for noon.", readCount: 1),
        ]
        state.typing = ["g:7/bob": Fixtures.start + .seconds(10)]
        return state
    }

    static func newGroup() -> AppState {
        var state = base()
        state.screen = .newGroup
        state.newGroup.title.text = "Weekend hike"
        state.newGroup.candidates = ["bob", "carol", "dave"]
        state.newGroup.picked = ["bob", "dave"]
        state.newGroup.selected = 1
        state.newGroup.choosingMembers = true
        return state
    }

    static func members() -> AppState {
        var state = base()
        state.screen = .groupMembers
        state.peer = ConversationKey.group(group.id)
        state.group = LocalGroup(group)
        state.selectedMember = 2
        state.confirmingRemoval = "carol"
        return state
    }

    static func request() -> AppState {
        var state = base()
        state.screen = .requests
        state.requests = [conversation(pinned: false, muted: false, request: true)] + Fixtures.requests
        return state
    }

    static var frames: [(String, AppState)] {
        [("group-list", list()), ("group-conversation", groupConversation()), ("group-request", request())]
    }
}
