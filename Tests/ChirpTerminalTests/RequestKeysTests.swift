import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Testing

/// The message requests screen of the terminal app: R from the conversations lists them;
/// a accepts, d declines, x blocks and p reports the selected one (both asking first), Enter
/// reads it, Esc goes back.
@MainActor
@Suite("Terminal app: message requests")
struct RequestKeysTests {
    static func onRequests(_ backend: FakeBackend) async -> TestStore<AppState, AppFeature.Action> {
        backend.data.withLock { $0.requests = Fixtures.requests }
        let store = TestStore(initialState: AppFeatureTests.loggedIn(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.character("R"))) {
            $0.screen = .requests
            $0.busySince = Fixtures.start
        }
        await store.receive(.requestsLoaded(Fixtures.requests)) {
            $0.requests = Fixtures.requests
            $0.busySince = nil
        }
        return store
    }

    @Test func rListsThemAndAAcceptsAndDDeclinesTheSelectedOne() async {
        let backend = FakeBackend()
        let store = await Self.onRequests(backend)
        await store.send(.key(.character("j"))) { $0.selectedRequest = 1 }
        await store.send(.key(.character("a")))
        await store.receive(.answered("frank", accepted: true)) {
            $0.banner = .init("Accepted frank's request: the conversation is in your list.", isError: false)
        }
        await store.receive(.requestsLoaded([Fixtures.requests[0]])) {
            $0.requests = [Fixtures.requests[0]]
            $0.selectedRequest = 0
        }
        await store.send(.key(.character("d"))) { $0.banner = nil }
        await store.receive(.answered("erin", accepted: false)) {
            $0.banner = .init("Declined erin's request.", isError: false)
        }
        await store.receive(.requestsLoaded([])) { $0.requests = [] }
        #expect(backend.data.withLock { $0.answers } == ["accept frank", "decline erin"])
        await store.send(.key(.character("a"))) { $0.banner = nil }
        await store.send(.key(.escape)) { $0.screen = .conversations }
        await store.receive(.conversationsLoaded([]))
        await store.finish()
    }

    @Test func xBlocksAndPReportsTheSelectedOneAfterAsking() async {
        let backend = FakeBackend()
        let store = await Self.onRequests(backend)
        await store.send(.key(.character("x"))) { $0.safetyPrompt = .confirmBlock }
        await store.send(.key(.character("a"))) { $0.safetyPrompt = nil }
        #expect(backend.data.withLock { $0.answers }.isEmpty, "a key that cancels the question does nothing else")
        await store.send(.key(.character("p"))) { $0.safetyPrompt = .chooseReason }
        await store.send(.key(.character("1"))) {
            $0.safetyPrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.reported("erin")) {
            $0.busySince = nil
            $0.banner = .init("Reported erin to the server's operators.", isError: false)
        }
        await store.send(.key(.character("x"))) {
            $0.banner = nil
            $0.safetyPrompt = .confirmBlock
        }
        await store.send(.key(.character("y"))) {
            $0.safetyPrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.blocked("erin")) {
            $0.busySince = nil
            $0.banner = .init(
                "Blocked erin: they cannot message or follow you. chirp unblock erin undoes it.", isError: false)
        }
        await store.receive(.requestsLoaded(Fixtures.requests))
        #expect(backend.data.withLock { ($0.blocked, $0.reported) } == (["erin"], ["erin:spam"]))
        await store.finish()
    }

    @Test func enterReadsTheSelectedRequest() async {
        let backend = FakeBackend()
        let store = await Self.onRequests(backend)
        await store.send(.key(.enter)) {
            $0.screen = .conversation
            $0.peer = "erin"
            $0.busySince = Fixtures.start
        }
        await store.receive(.messagesLoaded(peer: "erin", messages: [], hasMore: false)) { $0.busySince = nil }
        await store.finish()
    }
}
