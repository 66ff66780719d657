import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// Acting on a selected message in a conversation: reactions, replies, edits, unsending,
/// exhaustively with the TestStore.
@MainActor
@Suite("Terminal app: message actions")
struct MessageActionsTests {
    static let history = MessageActionFixtures.history
    static func id(_ index: Int) -> String { history[index].id }

    static func store(_ backend: FakeBackend, client: AppClient? = nil) -> TestStore<AppState, AppFeature.Action> {
        backend.data.withLock { $0.messages = history }
        return TestStore(
            initialState: MessageActionFixtures.conversation(), reducer: AppFeature(client: client ?? backend.client()))
    }

    /// After an action the open conversation reads the local data again.
    static func reloaded(_ store: TestStore<AppState, AppFeature.Action>) async {
        await store.receive(.sent)
        await store.receive(.messagesLoaded(peer: "bob", messages: history, hasMore: false))
    }

    @Test func arrowsSelectMessagesAndEscReturnsToTheInput() async {
        let backend = FakeBackend()
        let store = Self.store(backend)
        await store.send(.key(.up)) { $0.selectedMessage = Self.id(5) }
        await store.send(.key(.up)) { $0.selectedMessage = Self.id(4) }
        await store.send(.key(.character("x")))  // no meaning on a selection: not typed either
        await store.send(.key(.down)) { $0.selectedMessage = Self.id(5) }
        await store.send(.key(.down)) { $0.selectedMessage = nil }
        await store.send(.key(.up)) { $0.selectedMessage = Self.id(5) }
        await store.send(.key(.escape)) { $0.selectedMessage = nil }
        #expect(store.state.screen == .conversation, "Esc left the selection, not the conversation")
        await store.finish()
    }

    @Test func plusOpensThePickerAndADigitOrAnEmojiReactsOrTakesItBack() async {
        let backend = FakeBackend()
        let store = Self.store(backend)
        for index in [5, 4] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        // An unsent message takes no reaction.
        await store.send(.key(.character("+"))) { $0.banner = .init("This message was unsent.", isError: false) }
        for index in [3, 2] {
            await store.send(.key(.up)) {
                $0.selectedMessage = Self.id(index)
                $0.banner = nil
            }
        }
        await store.send(.key(.character("+"))) { $0.messagePrompt = .react(messageId: Self.id(2)) }
        await store.send(.key(.character("1"))) { $0.messagePrompt = nil }
        await Self.reloaded(store)
        // A key that is no emoji cancels.
        await store.send(.key(.character("+"))) { $0.messagePrompt = .react(messageId: Self.id(2)) }
        await store.send(.key(.character("x"))) { $0.messagePrompt = nil }
        // alice already gave message 1 a 👍: 1 takes it back; a typed emoji is itself.
        for index in [1, 0] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("+"))) { $0.messagePrompt = .react(messageId: Self.id(0)) }
        await store.send(.key(.character("1"))) { $0.messagePrompt = nil }
        await Self.reloaded(store)
        await store.send(.key(.character("+"))) { $0.messagePrompt = .react(messageId: Self.id(0)) }
        await store.send(.key(.character("🎉"))) { $0.messagePrompt = nil }
        await Self.reloaded(store)
        await store.finish()
        #expect(backend.data.withLock { $0.reacted } == ["bob bob/c3 👍", "bob bob/c1 -👍", "bob bob/c1 🎉"])
    }

    @Test func editingOwnMessagesWithinFifteenMinutesPrefillsTheInput() async {
        let backend = FakeBackend()
        let clock = Mutex(Fixtures.wallClock(afterMessage: 4, minutes: 14))
        var client = backend.client()
        client.wallClock = { clock.withLock { $0 } }
        let store = Self.store(backend, client: client)
        for index in [5, 4, 3, 2] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("e"))) {
            $0.banner = .init("Only your own messages can be edited.", isError: true)
        }
        await store.send(.key(.down)) {
            $0.selectedMessage = Self.id(3)
            $0.banner = nil
        }
        await store.send(.key(.character("e"))) {
            $0.draftPurpose = .edit(messageId: Self.id(3))
            $0.draft = TextInput(text: "Make it three, carol joins us.")
            $0.selectedMessage = nil
        }
        await store.send(.key(.character("!"))) { $0.draft.text += "!" }
        await store.send(.key(.enter)) {
            $0.draft = TextInput()
            $0.draftPurpose = nil
        }
        await Self.reloaded(store)
        #expect(backend.data.withLock { $0.edited } == ["bob alice/c4 Make it three, carol joins us.!"])
        #expect(backend.data.withLock { $0.typed }.isEmpty, "an edit sends no typing notice")
        // Esc gives up an edit and leaves the input empty again.
        for index in [5, 4, 3] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("e"))) {
            $0.draftPurpose = .edit(messageId: Self.id(3))
            $0.draft = TextInput(text: "Make it three, carol joins us.")
            $0.selectedMessage = nil
        }
        await store.send(.key(.escape)) {
            $0.draftPurpose = nil
            $0.draft = TextInput()
        }
        // Fifteen minutes after it was sent, the message can no longer be edited.
        clock.withLock { $0 = Fixtures.wallClock(afterMessage: 4, minutes: 15) }
        for index in [5, 4, 3] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("e"))) {
            $0.banner = .init("Messages can be edited for 15 minutes after sending; this one no longer.", isError: true)
        }
        await store.finish()
    }

    @Test func unsendingAsksFirstAndOnlyForOwnMessages() async {
        let backend = FakeBackend()
        let store = Self.store(backend)
        await store.send(.key(.up)) { $0.selectedMessage = Self.id(5) }
        await store.send(.key(.character("d"))) { $0.messagePrompt = .confirmUnsend(messageId: Self.id(5)) }
        await store.send(.key(.character("n"))) { $0.messagePrompt = nil }
        #expect(backend.data.withLock { $0.unsent }.isEmpty)
        await store.send(.key(.character("d"))) { $0.messagePrompt = .confirmUnsend(messageId: Self.id(5)) }
        await store.send(.key(.character("y"))) {
            $0.messagePrompt = nil
            $0.selectedMessage = nil
        }
        await Self.reloaded(store)
        #expect(backend.data.withLock { $0.unsent } == ["bob alice/c6"])
        for index in [5, 4, 3, 2] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("d"))) {
            $0.banner = .init("Only your own messages can be unsent.", isError: true)
        }
        await store.finish()
    }

    @Test func aReplyNamesTheMessageItAnswers() async {
        let backend = FakeBackend()
        let store = Self.store(backend)
        for index in [5, 4, 3, 2, 1, 0] { await store.send(.key(.up)) { $0.selectedMessage = Self.id(index) } }
        await store.send(.key(.character("r"))) {
            $0.draftPurpose = .reply(messageId: Self.id(0))
            $0.selectedMessage = nil
        }
        let frame = AppView.render(store.state, width: 80, height: 24).text
        #expect(
            frame.contains("↪ Replying to bob: Lunch on Friday?"), "the quoted line shows over the input:\n\(frame)")
        for character in "Sure" { await store.send(.key(.character(character))) { $0.draft.text.append(character) } }
        await store.send(.key(.enter)) {
            $0.draft = TextInput()
            $0.draftPurpose = nil
        }
        await Self.reloaded(store)
        await store.finish()
        #expect(backend.data.withLock { $0.outgoing } == [AppClient.Outgoing(text: "Sure", replyTo: "bob/c1")])
    }

    @Test func anActionTheServerRefusedLaterShowsOnTheBanner() async {
        let backend = FakeBackend()
        let refusals = Mutex(["edit: the edit window closed 15 minutes after sending"])
        var client = backend.client()
        client.refusedActions = {
            refusals.withLock { value in
                defer { value = [] }
                return value
            }
        }
        let store = Self.store(backend, client: client)
        await store.send(.sync(.changed(.messages(peer: "bob")))) {
            $0.banner = .init("Not done: edit: the edit window closed 15 minutes after sending", isError: true)
        }
        await store.receive(.messagesLoaded(peer: "bob", messages: Self.history, hasMore: false))
        await store.send(.sync(.changed(.messages(peer: "bob"))))  // nothing refused since
        await store.receive(.messagesLoaded(peer: "bob", messages: Self.history, hasMore: false))
        await store.finish()
    }

    @Test func updatedAndDeletedEventsOfTheOpenConversationReloadIt() async {
        let backend = FakeBackend()
        let store = Self.store(backend)
        let edited = MessageActionFixtures.message(4, from: "alice", to: "bob", "edited")
        await store.send(.sync(.event(Event(seq: 1, createdAt: edited.createdAt, payload: .messageUpdated(edited)))))
        await store.receive(.messagesLoaded(peer: "bob", messages: Self.history, hasMore: false))
        let elsewhere = MessageDeletedNotice(id: "9", sender: "carol", recipient: "alice")
        await store.send(.sync(.event(Event(seq: 2, createdAt: edited.createdAt, payload: .messageDeleted(elsewhere)))))
        let here = MessageDeletedNotice(id: "5", sender: "bob", recipient: "alice")
        await store.send(.sync(.event(Event(seq: 3, createdAt: edited.createdAt, payload: .messageDeleted(here)))))
        await store.receive(.messagesLoaded(peer: "bob", messages: Self.history, hasMore: false))
        await store.finish()
    }
}
