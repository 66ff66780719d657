import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Testing

/// The app's features, exhaustively: every state change asserted, every effect received.
@MainActor
@Suite("Terminal app features")
struct AppFeatureTests {
    static func loggedIn(_ screen: AppState.Screen = .conversations) -> AppState {
        var state = AppState(now: Fixtures.start)
        state.username = "alice"
        state.screen = screen
        state.connection = "live"
        return state
    }

    @Test func loginFailsWithAReasonThenSucceedsAndOpensTheConversations() async {
        let backend = FakeBackend()
        backend.data.withLock { $0.conversations = Fixtures.conversations }
        var client = backend.client()
        client.login = { _, password in
            guard password == "right-one" else {
                throw NetworkError.server(
                    status: 401, code: "invalid_credentials", message: "Wrong username or password.", field: "password")
            }
            return "alice"
        }
        let store = TestStore(initialState: AppState(now: Fixtures.start), reducer: AppFeature(client: client))
        for character in "alice" {
            await store.send(.key(.character(character))) { $0.login.username.text.append(character) }
        }
        await store.send(.key(.character("!")))  // not allowed in a username: ignored
        await store.send(.key(.enter)) { $0.login.focus = .password }
        for character in "wrong" {
            await store.send(.key(.character(character))) { $0.login.password.text.append(character) }
        }
        await store.send(.key(.enter)) { $0.login.isSubmitting = true }
        await store.receive(.login(.failed("Wrong username or password: try again (Ctrl-R to register instead)."))) {
            $0.login.isSubmitting = false
            $0.login.error = "Wrong username or password: try again (Ctrl-R to register instead)."
            $0.login.password = TextInput(limit: 128)
        }
        for character in "right-one" {
            await store.send(.key(.character(character))) { $0.login.password.text.append(character) }
        }
        await store.send(.key(.enter)) {
            $0.login.isSubmitting = true
            $0.login.error = nil
        }
        await store.receive(.login(.finished(username: "alice"))) {
            $0.login.isSubmitting = false
            $0.login.password = TextInput(limit: 128)
        }
        await store.receive(.login(.delegate(.loggedIn("alice")))) {
            $0.username = "alice"
            $0.screen = .conversations
            $0.connection = "connecting"
            $0.busySince = Fixtures.start
        }
        await store.receive(.conversationsLoaded(Fixtures.conversations)) {
            $0.busySince = nil
            $0.conversations = Fixtures.conversations
        }
        await store.finish()
    }

    @Test func aSentMessageMovesThroughEveryDeliveryState() async {
        let backend = FakeBackend()
        let client = backend.client()
        var state = Self.loggedIn()
        state.conversations = Fixtures.conversations
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        await store.send(.key(.enter)) {
            $0.peer = "bob"
            $0.screen = .conversation
            $0.busySince = Fixtures.start
        }
        await store.receive(.messagesLoaded(peer: "bob", messages: [], hasMore: false)) { $0.busySince = nil }
        for character in "hi" { await store.send(.key(.character(character))) { $0.draft.text.append(character) } }

        var pending = Fixtures.message(10, from: "alice", to: "bob", "hi", state: .pending)
        backend.data.withLock { $0.messages = [pending] }
        await store.send(.key(.enter)) { $0.draft = TextInput() }
        await store.receive(.sent)
        await store.receive(.messagesLoaded(peer: "bob", messages: [pending], hasMore: false)) {
            $0.messages = [pending]
        }
        #expect(backend.data.withLock { $0.sent } == ["hi"])

        for next in [DeliveryState.sent, .delivered, .read] {
            pending.state = next
            let snapshot = pending
            backend.data.withLock { $0.messages = [snapshot] }
            let event: EventPayload =
                next == .read
                ? .messageRead(ReadReceipt(reader: "bob", peer: "alice", upTo: "10"))
                : .messageCreated(
                    Message(
                        id: "10", clientMessageId: "c10", sender: "alice", recipient: "bob", text: "hi",
                        createdAt: Timestamp(millisecondsSince1970: 0), readByRecipient: false))
            await store.send(
                .sync(.event(Event(seq: 1, createdAt: Timestamp(millisecondsSince1970: 0), payload: event))))
            await store.receive(.messagesLoaded(peer: "bob", messages: [snapshot], hasMore: false)) {
                $0.messages = [snapshot]
            }
        }
        await store.finish()
        #expect(backend.data.withLock { $0.typed } == ["bob", "bob"], "each keystroke went to the typing sender")
    }

    @Test func anAnswerReadBeforeTheNewestMessageEndsTheLoadOfOlderOnesSoPgUpAsksAgain() async {
        let backend = FakeBackend()
        let older = Fixtures.message(1, from: "alice", to: "bob", "older", state: .delivered)
        let newest = Fixtures.message(2, from: "alice", to: "bob", "newest", state: .delivered)
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = [older, newest]
        state.hasOlderMessages = true
        state.loadingOlder = true
        state.busySince = state.now
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await store.send(.messagesLoaded(peer: "bob", messages: [older], hasMore: true)) {
            $0.loadingOlder = false
            $0.busySince = nil
        }
        await store.finish()
    }

    @Test func anAnswerOfANewerStretchIsShownThoughItLacksTheNewestMessageShown() async {
        let backend = FakeBackend()
        let caughtUp = (1...2).map { Fixtures.message($0, from: "alice", to: "bob", "n\($0)", state: .delivered) }
        let newer = (1906...1907).map { Fixtures.message($0, from: "alice", to: "bob", "n\($0)", state: .delivered) }
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = caughtUp
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await store.send(.messagesLoaded(peer: "bob", messages: newer, hasMore: true)) {
            $0.messages = newer
            $0.hasOlderMessages = true
        }
        await store.finish()
    }

    @Test func aFailedMessageIsRetriedWithCtrlR() async {
        let backend = FakeBackend()
        let failed = Fixtures.message(
            7, from: "alice", to: "bob", "Refused", state: .failed, failure: "bob does not follow you")
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = [failed]
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        var resent = failed
        resent.state = .sent
        resent.failure = nil
        backend.data.withLock { $0.messages = [resent] }
        await store.send(.key(.control("r")))
        await store.receive(.sent)
        await store.receive(.messagesLoaded(peer: "bob", messages: [resent], hasMore: false)) { $0.messages = [resent] }
        #expect(backend.data.withLock { $0.retried } == [failed.id])
        // Nothing failed any more: Ctrl-R says so.
        await store.send(.key(.control("r"))) { $0.banner = .init("No failed message to retry.", isError: false) }
        await store.finish()
    }

    @Test func aSendSettledInTheBackgroundShowsThroughALocalChange() async {
        // The message was shown pending at once; the outbox's drain, later, finds it refused.
        let backend = FakeBackend()
        let pending = Fixtures.message(7, from: "alice", to: "bob", "hi", state: .pending)
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = [pending]
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        var refused = pending
        refused.state = .failed
        refused.failure = "bob does not follow you"
        backend.data.withLock { $0.messages = [refused] }
        await store.send(.sync(.changed(.messages(peer: "carol"))))  // another conversation: nothing to read
        await store.send(.sync(.changed(.timeline)))
        await store.send(.sync(.changed(.messages(peer: "bob"))))
        await store.receive(.messagesLoaded(peer: "bob", messages: [refused], hasMore: false)) {
            $0.messages = [refused]
        }
        await store.finish()
    }

    @Test func scrollingUpPastTheOldestLoadedMessageLoadsTheNextPage() async {
        let backend = FakeBackend()
        let all = (1...40).map {
            Fixtures.message(
                $0, from: $0 % 2 == 0 ? "alice" : "bob", to: $0 % 2 == 0 ? "bob" : "alice", "m\($0)", state: .received)
        }
        backend.data.withLock { $0.messages = all }
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = Array(all.suffix(2))
        state.hasOlderMessages = true
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await store.send(.key(.pageUp)) {
            // A page is 8 messages at 24 rows; near the oldest loaded, the next 100 are asked for.
            $0.scroll = 1
            $0.messageLimit = 130
            $0.loadingOlder = true
            $0.busySince = Fixtures.start
        }
        await store.receive(.messagesLoaded(peer: "bob", messages: all, hasMore: false)) {
            $0.messages = all
            $0.hasOlderMessages = false
            $0.loadingOlder = false
            $0.busySince = nil
        }
        await store.send(.key(.pageUp)) { $0.scroll = 9 }
        await store.send(.key(.pageUp)) { $0.scroll = 17 }
        await store.send(.key(.pageDown)) { $0.scroll = 9 }
        // ↑ selects the message at the bottom of the view, not the newest.
        await store.send(.key(.up)) { $0.selectedMessage = all[30].id }
        // Paging with a selection leaves it and pages from where the view is.
        await store.send(.key(.pageUp)) {
            $0.selectedMessage = nil
            $0.scroll = 17
        }
        await store.finish()
    }

    @Test func newMessagesArrivingWhileScrolledUpLeaveTheViewWhereItIs() async {
        let backend = FakeBackend()
        let all = (1...40).map { Fixtures.message($0, from: "bob", to: "alice", "m\($0)", state: .received) }
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        state.messages = Array(all.prefix(38))
        state.scroll = 5
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await store.send(.messagesLoaded(peer: "bob", messages: all, hasMore: false)) {
            $0.messages = all
            $0.scroll = 7
        }
        #expect(store.state.messages[store.state.bottomIndex].text == "m33")
        await store.finish()
    }

    @Test func remoteTypingShowsUntilThirtySecondsPassOrTheirMessageArrives() async {
        var state = Self.loggedIn(.conversation)
        state.peer = "bob"
        let backend = FakeBackend()
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        let typing = Event(
            seq: nil, createdAt: Timestamp(millisecondsSince1970: 0), payload: .typing(TypingNotice(from: "Bob")))
        await store.send(.sync(.event(typing))) { $0.typing = ["bob": Fixtures.start + .seconds(30)] }
        #expect(store.state.typingPeers == ["bob"])
        await store.send(.tick(Fixtures.start + .seconds(29))) { $0.now = Fixtures.start + .seconds(29) }
        #expect(store.state.typingPeers == ["bob"])
        await store.send(.tick(Fixtures.start + .seconds(30))) {
            $0.now = Fixtures.start + .seconds(30)
            $0.typing = [:]
        }
        await store.finish()
    }

    @Test func theThemeIsChosenInSettingsAndSaved() async {
        let backend = FakeBackend()
        let store = TestStore(initialState: Self.loggedIn(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.character("s"))) {
            $0.returnTo = .conversations
            $0.screen = .settings
        }
        await store.send(.key(.down)) { $0.settingsSelection = 1 }
        await store.send(.key(.down)) { $0.settingsSelection = 2 }
        // Under the themes: the bell.
        await store.send(.key(.down)) { $0.settingsSelection = 3 }
        await store.send(.key(.up)) { $0.settingsSelection = 2 }
        await store.send(.key(.enter)) {
            $0.theme = .highContrast
            $0.screen = .conversations
        }
        await store.finish()
        #expect(backend.data.withLock { $0.savedThemes } == [.highContrast])
    }

    @Test func logoutReturnsToTheLoginScreenWithTheThemeKept() async {
        let backend = FakeBackend()
        var state = Self.loggedIn()
        state.theme = .light
        state.conversations = Fixtures.conversations
        let store = TestStore(initialState: state, reducer: AppFeature(client: backend.client()))
        await store.send(.key(.character("L"))) { $0.busySince = Fixtures.start }
        await store.receive(.loggedOut) {
            $0 = AppState(now: Fixtures.start, theme: .light)
            $0.banner = .init("Logged out; this user's local data is deleted.", isError: false)
        }
        await store.finish()
        #expect(backend.data.withLock { $0.loggedOut })
    }

    @Test func composingATweetCountsToTwoHundredEightyAndPosts() async {
        let backend = FakeBackend()
        var client = backend.client()
        client.tweet = { _ in }
        backend.data.withLock { $0.tweets = Fixtures.tweets }
        let store = TestStore(initialState: Self.loggedIn(.timeline), reducer: AppFeature(client: client))
        await store.send(.key(.character("c"))) {
            $0.returnTo = .timeline
            $0.screen = .compose
        }
        let long = String(repeating: "x", count: 281)
        for character in long {
            await store.send(.key(.character(character))) { $0.compose.input.text.append(character) }
        }
        #expect(store.state.compose.count == 281)
        await store.send(.key(.enter)) { $0.compose.error = "A tweet is at most 280 characters: remove 1." }
        await store.send(.key(.backspace)) {
            $0.compose.input.text.removeLast()
            $0.compose.error = nil
        }
        await store.send(.key(.enter)) { $0.compose.isPosting = true }
        await store.receive(.compose(.posted)) { $0.compose = ComposeFeature.State() }
        await store.receive(.compose(.delegate(.done(posted: true)))) {
            $0.screen = .timeline
            $0.busySince = Fixtures.start
        }
        await store.receive(.timelineLoaded(Fixtures.tweets)) {
            $0.tweets = Fixtures.tweets
            $0.busySince = nil
        }
        await store.finish()
    }
}

/// Links open screens through the router, also before the login finished.
@MainActor
@Suite("Terminal app navigation")
struct AppNavigationTests {
    @Test func aLinkOpensItsScreenAfterTheSessionIsRestored() async throws {
        let backend = FakeBackend()
        var client = backend.client()
        client.restore = { "alice" }
        backend.data.withLock { $0.messages = [Fixtures.history[0]] }
        let store = TestStore(initialState: AppState(now: Fixtures.start), reducer: AppFeature(client: client))
        let coordinator = AppCoordinator(router: try ClientRoutes.app().router)
        let action = await coordinator.action(for: URL(string: "chirp://conversation/bob")!)
        #expect(action == .navigate(.conversation("bob")))
        await store.send(action!) { $0.pendingDestination = .conversation("bob") }
        await store.send(.start)
        await store.receive(.restored("alice")) {
            $0.username = "alice"
            $0.screen = .conversations
            $0.connection = "connecting"
            $0.busySince = Fixtures.start
            $0.pendingDestination = nil
        }
        await store.receive(.navigate(.conversation("bob"))) {
            $0.peer = "bob"
            $0.screen = .conversation
        }
        await store.receive(.conversationsLoaded([])) { $0.busySince = nil }
        await store.receive(.messagesLoaded(peer: "bob", messages: [Fixtures.history[0]], hasMore: false)) {
            $0.messages = [Fixtures.history[0]]
        }
        await store.finish()
        #expect(await coordinator.action(for: URL(string: "chirp://nowhere")!) == nil)
    }
}
