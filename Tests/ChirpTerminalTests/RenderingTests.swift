import ChirpClient
import ChirpTerminal
import Foundation
import Testing

/// Rendering is a pure function of the state: every screen at 80×24 and 120×40 is compared
/// with a checked-in text frame (`Frames/`). Run with `RECORD_FRAMES=1` to rewrite them after
/// an intended change, then review the diff.
@Suite("Rendering")
struct RenderingTests {
    static let framesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Frames")

    static func state(_ screen: AppState.Screen) -> AppState {
        var state = AppState(now: Fixtures.start)
        state.username = "alice"
        state.connection = "live"
        state.screen = screen
        state.conversations = Fixtures.conversations
        state.tweets = Fixtures.tweets
        switch screen {
        case .login:
            state.username = nil
            state.login.username.text = "alice"
            state.login.password.text = "secret"
            state.login.focus = .password
            state.login.error = "Wrong username or password: try again (Ctrl-R to register instead)."
        case .conversation:
            state.peer = "bob"
            state.messages = Fixtures.history
            state.hasOlderMessages = true
            state.draft.text = "a reply in progress"
            state.typing = ["bob": Fixtures.start + .seconds(10)]
        case .timeline:
            state.newTweets = 2
        case .compose:
            state.compose.input.text = "Composing a tweet with an emoji 🐦 and wide text 你好"
        case .newConversation:
            state.newPeer.text = "car"
        case .settings:
            state.settingsSelection = 1
        case .conversations:
            state.banner = .init("carol follows you now.", isError: false)
        case .help:
            break
        case .account:
            state.account = AccountFixtures.sessionsPage()
        case .search:
            state = MessageActionFixtures.searchResults()
        case .requests:
            state.requests = Fixtures.requests
            state.selectedRequest = 1
            state.safetyPrompt = .confirmBlock
        case .newGroup:
            state = GroupFixtures.newGroup()
        case .groupMembers:
            state = GroupFixtures.members()
        case .safetyNumber:
            state = EncryptionFixtures.safetyNumber()
        }
        return state
    }

    static let screens: [(String, AppState.Screen)] = [
        ("login", .login), ("conversations", .conversations), ("new-conversation", .newConversation),
        ("conversation", .conversation),
        ("timeline", .timeline), ("compose", .compose), ("help", .help), ("settings", .settings),
        ("account-sessions", .account),
        ("search", .search), ("requests", .requests), ("new-group", .newGroup), ("group-members", .groupMembers),
        ("safety-number", .safetyNumber),
    ]

    /// Every reference frame: a state per screen, then the conversation's part-2 states.
    static var frames: [(String, AppState)] {
        screens.map { ($0.0, state($0.1)) } + MessageActionFixtures.frames + GroupFixtures.frames
            + EncryptionFixtures.frames
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func everyScreenMatchesItsReferenceFrame(width: Int, height: Int) throws {
        for (name, state) in Self.frames {
            let frame = AppView.render(state, width: width, height: height)
            let url = Self.framesDirectory.appendingPathComponent("\(name)-\(width)x\(height).txt")
            if ProcessInfo.processInfo.environment["RECORD_FRAMES"] != nil {
                try FileManager.default.createDirectory(at: Self.framesDirectory, withIntermediateDirectories: true)
                try (frame.text + "\n").write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            let reference = try String(contentsOf: url, encoding: .utf8)
            #expect(
                frame.text + "\n" == reference,
                "\(name) at \(width)×\(height) differs from Frames/\(url.lastPathComponent)")
            // Every row fits the width, counting wide characters as two columns.
            for line in frame.text.split(separator: "\n") {
                #expect(TextWidth.of(line) <= width, "\(name): a row is wider than \(width)")
            }
        }
    }

    @Test func tooSmallATerminalSaysSo() {
        let frame = AppView.render(Self.state(.conversations), width: 30, height: 8)
        #expect(frame.text.hasPrefix("Window too small"))
    }

    @Test func aConversationOfTenThousandMessagesRendersOnlyWhatShows() {
        var state = Self.state(.conversation)
        state.messages = (1...10_000).map { (id: Int) -> LocalMessage in
            let mine = id % 2 == 0
            return Fixtures.message(
                id, from: mine ? "alice" : "bob", to: mine ? "bob" : "alice", "message \(id)", state: .read)
        }
        state.hasOlderMessages = false
        let frame = AppView.render(state, width: 80, height: 24)
        #expect(frame.text.contains("message 10000"))
        #expect(!frame.text.contains("message 9000"))
    }

    @Test func theViewOfALongHistoryIsWhereItsScrollAndSelectionSay() {
        var state = Self.state(.conversation)
        state.messages = (1...10_000).map {
            Fixtures.message($0, from: "bob", to: "alice", "message \($0)", state: .received)
        }
        state.hasOlderMessages = true
        state.scroll = 5_000  // messages from the newest: the bottom shows message 5000
        var rows = AppView.render(state, width: 80, height: 24).text.split(separator: "\n").map(String.init)
        let shown = rows.compactMap { $0.contains("message ") ? Int($0.split(separator: " ").last ?? "") : nil }
        #expect(shown.last == 5000 && shown.count >= 8, "\(shown)")
        #expect(shown == Array((5001 - shown.count)...5000))
        // A selection above the view heads it; one below ends it.
        state.selectedMessage = state.messages[99].id
        rows = AppView.render(state, width: 80, height: 24).text.split(separator: "\n").map(String.init)
        #expect(rows.firstIndex { $0.hasPrefix("▸ ") } == 1, "\(rows)")
        state.selectedMessage = state.messages[9_000].id
        rows = AppView.render(state, width: 80, height: 24).text.split(separator: "\n").map(String.init)
        #expect(rows.last { $0.contains("message ") }?.hasSuffix("message 9001") == true, "\(rows)")
        // At the oldest loaded, the marker says PgUp loads more.
        state.selectedMessage = nil
        state.scroll = 9_999
        #expect(AppView.render(state, width: 80, height: 24).text.contains("↑ older messages: PgUp to load"))
    }

    @Test func aConversationFullOfAttachmentsStillDrawsInTheSmallestWindow() {
        var state = MessageActionFixtures.replyWithAttachments()
        state.attachments += state.attachments
        state.transfers.append(TransferProgress(id: "cm10", filename: "b.png", sent: 1, total: 2))
        state.selectedMessage = MessageActionFixtures.history[0].id
        let frame = AppView.render(state, width: AppView.minimumSize.width, height: AppView.minimumSize.height).text
        let rows = frame.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == AppView.minimumSize.height)
        #expect(frame.contains("> Count me in"), "the input stays:\n\(frame)")
        #expect(frame.contains("↪ Replying to bob"), "what the draft is for stays:\n\(frame)")
    }

    @Test func noColorKeepsEmphasisButDropsColors() {
        let frame = AppView.render(Self.state(.conversations), width: 80, height: 24, noColor: true)
        #expect(frame.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(frame.cells.contains { $0.style.reverse })
    }

    /// Pinned rows show 📌 before the name; a muted row shows 🔕 and its unread count without
    /// the highlight that alerts to new messages (it still counts them).
    @Test func pinnedAndMutedMarksInTheList() throws {
        var state = Self.state(.conversations)
        state.conversations = [
            Fixtures.conversation("bob", last: "pinned one", from: "bob", unread: 2, minute: 3),
            Fixtures.conversation("carol", last: "muted one", from: "carol", unread: 4, minute: 2),
        ]
        state.conversations[0].pinOrder = 1
        state.conversations[1].muted = true
        state.selectedConversation = 5  // nothing selected: both rows drawn in their own styles
        let frame = AppView.render(state, width: 80, height: 24)
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let pinned = try #require(rows.first { $0.contains("pinned one") })
        let muted = try #require(rows.first { $0.contains("muted one") })
        #expect(pinned.hasPrefix("   📌bob (2)") && muted.hasPrefix("   carol (4) 🔕"), "\(rows)")
        let theme = Theme.named(state.theme)
        let style = { (y: Int, text: String) in
            frame[TextWidth.of(rows[y].prefix(upTo: rows[y].range(of: text)!.lowerBound)), y].style
        }
        #expect(style(rows.firstIndex(of: pinned)!, "(2)") == theme.notice, "an unread count alerts")
        #expect(style(rows.firstIndex(of: muted)!, "(4)") == theme.muted, "a muted one's does not")
    }
}
