import ChirpClient
import ChirpModels
import ChirpTerminal
import Foundation

/// States of the conversation with part 2 in them (reactions, replies, edits, unsent messages,
/// attachments and their uploads) and of the search screen, for reference frames and tests.
enum MessageActionFixtures {
    static let photo = Media(
        id: "m1", clientMediaId: "cm1", contentType: "image/png", size: 250_880,
        sha256: String(repeating: "a", count: 64),
        filename: "photo.png", createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000))

    /// bob and alice, with a reaction, a reply, an edit, an unsent message and a photo.
    static let history: [LocalMessage] = {
        var rows = [
            Fixtures.message(
                1, from: "bob", to: "alice", "Lunch on Friday? The new ramen place opened.", state: .received),
            Fixtures.message(2, from: "alice", to: "bob", "Yes! 12:30 works for me.", state: .read),
            Fixtures.message(3, from: "bob", to: "alice", "Great, I'll book a table for two.", state: .received),
            Fixtures.message(4, from: "alice", to: "bob", "Make it three, carol joins us.", state: .read),
            Fixtures.message(5, from: "bob", to: "alice", "", state: .received),
            Fixtures.message(6, from: "alice", to: "bob", "Here is the menu", state: .delivered),
        ]
        rows[0].reactions = [
            MessageReaction(emoji: "👍", users: ["alice", "carol"]), MessageReaction(emoji: "❤️", users: ["alice"]),
        ]
        rows[2].replyTo = "2"
        rows[3].editedAt = Timestamp(millisecondsSince1970: 1_795_331_100_000).rfc3339
        rows[4].deleted = true
        rows[5].media = [photo]
        rows[5].attachments = [LocalAttachment(photo)]
        return rows
    }()

    static func loggedIn(_ screen: AppState.Screen) -> AppState {
        var state = AppState(now: Fixtures.start)
        state.username = "alice"
        state.screen = screen
        state.connection = "live"
        return state
    }

    static func conversation() -> AppState {
        var state = loggedIn(.conversation)
        state.peer = "bob"
        state.messages = history
        return state
    }

    /// The reply selected, the reaction picker open.
    static func selectedWithPicker() -> AppState {
        var state = conversation()
        state.selectedMessage = history[2].id
        state.messagePrompt = .react(messageId: history[2].id)
        return state
    }

    /// A reply being written with two files attached, one of them uploading.
    static func replyWithAttachments() -> AppState {
        var state = conversation()
        state.draftPurpose = .reply(messageId: history[0].id)
        state.draft.text = "Count me in"
        state.attachments = [
            AttachmentFile(
                url: URL(fileURLWithPath: "/home/alice/menu.pdf"), contentType: "application/pdf", size: 1_572_864),
            AttachmentFile(url: URL(fileURLWithPath: "/home/alice/map.png"), contentType: "image/png", size: 18_432),
        ]
        state.transfers = [TransferProgress(id: "cm9", filename: "photo.png", sent: 105_370, total: 250_880)]
        return state
    }

    static func searchResults() -> AppState {
        var state = loggedIn(.search)
        state.conversations = Fixtures.conversations
        state.search = SearchFeature.State(openedFrom: nil)
        state.search.input.text = "ramen friday"
        state.search.searchedFor = "ramen friday"
        state.search.selected = 1
        state.search.results = [
            message(
                9, from: "carol", to: "alice",
                "Friday ramen again? I could eat at that place every week, honestly; the broth is that good."),
            message(1, from: "bob", to: "alice", "Lunch on Friday? The new ramen place opened."),
            message(0, from: "alice", to: "dave", "Friday: ramen with bob"),
        ]
        return state
    }

    static func message(_ id: Int, from sender: String, to recipient: String, _ text: String) -> Message {
        Message(
            id: String(id), clientMessageId: "c\(id)", sender: sender, recipient: recipient, text: text,
            createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(id) * 60_000), readByRecipient: false)
    }

    static var frames: [(String, AppState)] {
        [("conversation-selected", selectedWithPicker()), ("conversation-reply", replyWithAttachments())]
    }
}
