import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Testing

/// The notice of a new message in another conversation: shown on the banner's line for five
/// seconds or until a key, never for the open conversation, a muted one or this user's own
/// messages; the bell with it only when Settings turned it on.
@MainActor
@Suite("Terminal app: new message notices")
struct MessageNoticeTests {
    static func created(
        _ id: Int, from sender: String, to recipient: String, _ text: String, group: String? = nil
    ) -> AppFeature.Action {
        let message = Message(
            id: String(id), clientMessageId: "n\(id)", sender: sender, recipient: group == nil ? recipient : "",
            text: text, createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000), readByRecipient: false,
            group: group)
        return .sync(.event(Event(seq: Int64(id), createdAt: message.createdAt, payload: .messageCreated(message))))
    }

    /// Alice in her conversation with bob, the list loaded.
    static func inBobsConversation() -> AppState {
        var state = AppFeatureTests.loggedIn(.conversation)
        state.peer = "bob"
        state.conversations = Fixtures.conversations
        return state
    }

    static let until = Fixtures.start + AppState.noticeDuration

    @Test func aMessageInAnotherConversationShowsForFiveSeconds() async {
        let store = TestStore(
            initialState: Self.inBobsConversation(), reducer: AppFeature(client: FakeBackend().client()))
        await store.send(Self.created(20, from: "carol", to: "alice", "Lunch at noon?\nThe usual place.")) {
            $0.notice = .init("New: carol: Lunch at noon? The usual place.", until: Self.until)
        }
        await store.send(.tick(Fixtures.start + .milliseconds(4_900))) {
            $0.now = Fixtures.start + .milliseconds(4_900)
        }
        await store.send(.tick(Self.until)) {
            $0.now = Self.until
            $0.notice = nil
        }
        await store.finish()
    }

    @Test func theOpenConversationRaisesNoNoticeAndReadsAgain() async {
        let backend = FakeBackend()
        let store = TestStore(initialState: Self.inBobsConversation(), reducer: AppFeature(client: backend.client()))
        await store.send(Self.created(21, from: "Bob", to: "alice", "hi"))
        await store.receive(.messagesLoaded(peer: "bob", messages: [], hasMore: false))
        await store.finish()
        #expect(store.state.notice == nil)
    }

    @Test func aGroupNoticeNamesTheGroupUnlessItIsOpen() async {
        var state = Self.inBobsConversation()
        state.conversations = [GroupFixtures.conversation(pinned: false, muted: false)] + Fixtures.conversations
        let store = TestStore(initialState: state, reducer: AppFeature(client: FakeBackend().client()))
        await store.send(Self.created(22, from: "carol", to: "", "Count me in", group: "7")) {
            $0.notice = .init("New: carol in Lunch crew: Count me in", until: Self.until)
        }
        await store.finish()

        // In the group, its messages raise none; bob's direct one does.
        var inGroup = state
        inGroup.peer = ConversationKey.group("7")
        let groupStore = TestStore(initialState: inGroup, reducer: AppFeature(client: FakeBackend().client()))
        await groupStore.send(Self.created(23, from: "carol", to: "", "Booked", group: "7"))
        await groupStore.send(Self.created(24, from: "bob", to: "alice", "psst")) {
            $0.notice = .init("New: bob: psst", until: Self.until)
        }
        await groupStore.finish()
    }

    @Test func mutedConversationsAndOwnMessagesRaiseNone() async {
        var state = AppFeatureTests.loggedIn(.timeline)
        state.conversations = Fixtures.conversations + [GroupFixtures.conversation(pinned: false, muted: true)]
        state.conversations[1].muted = true  // carol
        let store = TestStore(initialState: state, reducer: AppFeature(client: FakeBackend().client()))
        await store.send(Self.created(25, from: "carol", to: "alice", "muted"))
        await store.send(Self.created(26, from: "bob", to: "alice", "muted group", group: "7"))
        await store.send(Self.created(27, from: "alice", to: "bob", "my own"))
        await store.send(Self.created(28, from: "bob", to: "alice", "this one")) {
            $0.notice = .init("New: bob: this one", until: Self.until)
        }
        await store.finish()
    }

    @Test func beforeTheListLoadsTheClientSaysWhichAreMuted() async {
        let backend = FakeBackend()
        backend.data.withLock { $0.muted = ["carol"] }
        let store = TestStore(
            initialState: AppFeatureTests.loggedIn(.timeline), reducer: AppFeature(client: backend.client()))
        await store.send(Self.created(29, from: "carol", to: "alice", "muted"))
        await store.finish()
        await store.send(Self.created(30, from: "bob", to: "alice", "hello", group: "9"))
        let notification = PushNotification(conversation: .group("9"), sender: "bob", messageId: "30", text: "hello")
        await store.receive(.notify(notification)) {
            $0.notice = .init("New: bob in group 9: hello", until: Self.until)
        }
        await store.finish()
    }

    @Test func anyKeyTakesTheNoticeAwayAndDoesWhatItDoes() async {
        var state = AppFeatureTests.loggedIn(.conversations)
        state.conversations = Fixtures.conversations
        state.notice = .init("New: bob: hi", until: Self.until)
        let store = TestStore(initialState: state, reducer: AppFeature(client: FakeBackend().client()))
        await store.send(.key(.down)) {
            $0.notice = nil
            $0.selectedConversation = 1
        }
        await store.finish()
    }

    @Test func theBellRingsWithANoticeOnlyWhenTurnedOn() async {
        let backend = FakeBackend()
        var state = Self.inBobsConversation()
        let quiet = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await quiet.send(Self.created(31, from: "carol", to: "alice", "one")) {
            $0.notice = .init("New: carol: one", until: Self.until)
        }
        await quiet.finish()
        #expect(backend.data.withLock { $0.bells } == 0)

        state.bellOnNewMessages = true
        let ringing = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await ringing.send(Self.created(32, from: "carol", to: "alice", "two")) {
            $0.notice = .init("New: carol: two", until: Self.until)
        }
        await ringing.send(Self.created(33, from: "alice", to: "carol", "my answer"))
        await ringing.finish()
        #expect(backend.data.withLock { $0.bells } == 1, "once for the notice, not for alice's own message")
    }

    @Test func theBellIsTurnedOnAndOffInSettingsAndSaved() async {
        let backend = FakeBackend()
        let store = TestStore(initialState: AppFeatureTests.loggedIn(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.character("s"))) {
            $0.returnTo = .conversations
            $0.screen = .settings
        }
        for row in 1...AppState.bellSettingsRow { await store.send(.key(.down)) { $0.settingsSelection = row } }
        #expect(AppView.render(store.state, width: 80, height: 24).text.contains(" ▸ Bell on new messages: off"))
        await store.send(.key(.enter)) { $0.bellOnNewMessages = true }
        #expect(AppView.render(store.state, width: 80, height: 24).text.contains(" ▸ Bell on new messages: on"))
        await store.send(.key(.enter)) { $0.bellOnNewMessages = false }
        await store.finish()
        #expect(backend.data.withLock { $0.savedBells } == [true, false])
    }

    @Test func theSavedBellSettingIsReadWhenTheSessionStarts() async {
        let backend = FakeBackend()
        var client = backend.client()
        client.loadBell = { true }
        let store = TestStore(initialState: AppState(now: Fixtures.start), reducer: AppFeature(client: client))
        await store.send(.restored("alice")) {
            $0.username = "alice"
            $0.bellOnNewMessages = true
            $0.screen = .conversations
            $0.connection = "connecting"
            $0.busySince = Fixtures.start
        }
        await store.receive(.conversationsLoaded([])) { $0.busySince = nil }
        await store.finish()
    }

    @Test func theNoticeLineFitsTheWidthKeepsTheStatusLineAndReadsWithoutColor() {
        var state = AppFeatureTests.loggedIn(.conversations)
        state.conversations = Fixtures.conversations
        state.banner = .init("carol follows you now.", isError: false)
        state.notice = .init("New: bob: " + String(repeating: "a long message ", count: 10), until: Self.until)
        for noColor in [false, true] {
            let frame = AppView.render(state, width: 40, height: 12, noColor: noColor)
            let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(rows[0].contains("● live"), "\(rows[0])")
            #expect(rows[10].hasPrefix(" New: bob: a long message") && rows[10].hasSuffix("…"), "\(rows[10])")
            #expect(TextWidth.of(rows[10]) <= 40)
            #expect(!frame.text.contains("carol follows you"), "the notice shows over the banner")
            let style = frame[1, 10].style
            #expect(noColor ? style.background == nil && style.reverse : style.background == .yellow)
        }
        state.notice = nil
        #expect(AppView.render(state, width: 40, height: 12).text.contains("carol follows you"))
    }
}
