import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Testing

/// Blocking and reporting the open conversation's peer from the terminal app: a question
/// line first, then the answer key; anything else cancels, and the keys typed meanwhile do
/// not reach the draft.
@MainActor
@Suite("Terminal app: block and report keys")
struct SafetyKeysTests {
    static func inConversation() -> AppState {
        var state = AppFeatureTests.loggedIn(.conversation)
        state.peer = "bob"
        return state
    }

    @Test func ctrlXAsksThenBlocksAndReturnsToTheList() async {
        let backend = FakeBackend()
        let store = TestStore(initialState: Self.inConversation(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.control("x"))) { $0.safetyPrompt = .confirmBlock }
        // Any other key cancels, and is not typed into the draft.
        await store.send(.key(.character("n"))) { $0.safetyPrompt = nil }
        #expect(backend.data.withLock { $0.blocked }.isEmpty)
        await store.send(.key(.control("x"))) { $0.safetyPrompt = .confirmBlock }
        await store.send(.key(.character("y"))) {
            $0.safetyPrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.blocked("bob")) {
            $0.banner = .init(
                "Blocked bob: they cannot message or follow you. chirp unblock bob undoes it.", isError: false)
            $0.screen = .conversations
            $0.peer = nil
        }
        await store.receive(.conversationsLoaded([])) { $0.busySince = nil }
        #expect(backend.data.withLock { $0.blocked } == ["bob"])
        await store.finish()
    }

    @Test func ctrlPAsksForAReasonThenReports() async {
        let backend = FakeBackend()
        let store = TestStore(initialState: Self.inConversation(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.control("p"))) { $0.safetyPrompt = .chooseReason }
        await store.send(.key(.escape)) { $0.safetyPrompt = nil }
        #expect(store.state.screen == .conversation, "Esc cancelled the question, not the conversation")
        await store.send(.key(.control("p"))) { $0.safetyPrompt = .chooseReason }
        await store.send(.key(.character("2"))) {
            $0.safetyPrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.reported("bob")) {
            $0.busySince = nil
            $0.banner = .init("Reported bob to the server's operators.", isError: false)
        }
        #expect(backend.data.withLock { $0.reported } == ["bob:abuse"])
        await store.finish()
    }

    @Test func theQuestionShowsAboveTheHintsThatAnswerIt() {
        var state = Self.inConversation()
        state.safetyPrompt = .confirmBlock
        let frame = AppView.render(state, width: 80, height: 24).text.split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(frame[22].contains("Block bob? They can no longer message or follow you"))
        #expect(frame[23].contains("y block · any other key: cancel"))
        state.safetyPrompt = .chooseReason
        let report = AppView.render(state, width: 80, height: 24).text.split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(report[22].contains("Report bob to the server's operators, for: 1 spam · 2 abuse · 3 other"))
        #expect(report[23].contains("1 spam · 2 abuse · 3 other · Esc cancel"))
    }
}
