import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// States of encrypted conversations for the reference frames and the key tests.
enum EncryptionFixtures {
    /// alice, logged in, on `screen`.
    static func loggedIn(_ screen: AppState.Screen) -> AppState {
        var state = AppState(now: Fixtures.start)
        state.username = "alice"
        state.screen = screen
        state.connection = "live"
        return state
    }

    /// alice's list with bob's conversation encrypted.
    static var conversations: [ConversationSummary] {
        var rows = Fixtures.conversations
        rows[0] = ConversationSummary(
            Conversation(
                peer: User(
                    id: "bob", username: "bob", displayName: "Bob", createdAt: Timestamp(millisecondsSince1970: 0),
                    followersCount: 1, followingCount: 1),
                lastMessage: Message(
                    id: "40", clientMessageId: "x40", sender: "bob", recipient: "alice", text: "the old mill at nine",
                    createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + 40 * 60_000),
                    readByRecipient: false),
                unreadCount: 1, encrypted: true))
        return rows
    }

    /// The encrypted conversation with bob: one message opened, one that could not be verified.
    static func conversation() -> AppState {
        var state = loggedIn(.conversation)
        state.peer = "bob"
        state.conversations = conversations
        var opened = Fixtures.message(38, from: "bob", to: "alice", "the old mill at nine", state: .received)
        opened.verification = .opened
        var forged = Fixtures.message(39, from: "bob", to: "alice", "", state: .received)
        forged.verification = .couldNotVerify
        var mine = Fixtures.message(40, from: "alice", to: "bob", "see you there", state: .delivered)
        mine.verification = .opened
        state.messages = [opened, forged, mine]
        return state
    }

    static func safetyNumber() -> AppState {
        var state = conversation()
        state.screen = .safetyNumber
        state.safetyNumber = .init(peer: "bob", digits: digits)
        return state
    }

    static let digits = "12345 67890 13579 24680 11223 34455 66778 89900 98765 43210 02468 97531"

    static var frames: [(String, AppState)] {
        var list = loggedIn(.conversations)
        list.conversations = conversations
        var asking = conversation()
        asking.conversations = Fixtures.conversations
        asking.safetyPrompt = .confirmEncrypt
        return [("encrypted-list", list), ("encrypted-conversation", conversation()), ("encrypt-confirm", asking)]
    }
}

/// The terminal app's encrypted conversations: Ctrl-E asks, then turns encryption on; Ctrl-K
/// shows the safety number (direct conversations only); a member's device change is said on
/// the notice line; a message that did not open shows "could not be verified".
@MainActor
@Suite("Terminal app: encryption keys")
struct EncryptionKeysTests {
    static func inConversation(_ peer: String = "bob") -> AppState {
        var state = AppFeatureTests.loggedIn(.conversation)
        state.peer = peer
        return state
    }

    @Test func ctrlEAsksThenEncryptsAndTheListShowsTheLock() async {
        let backend = FakeBackend()
        let encrypted = Mutex<[String]>([])
        var client = backend.client()
        client.turnOnEncryption = { peer in
            encrypted.withLock { $0.append(peer) }
            backend.data.withLock { $0.conversations = EncryptionFixtures.conversations }
        }
        let store = TestStore(initialState: Self.inConversation(), reducer: AppFeature(client: client))
        await store.send(.key(.control("e"))) { $0.safetyPrompt = .confirmEncrypt }
        // Any other key cancels, and is not typed into the draft.
        await store.send(.key(.character("n"))) { $0.safetyPrompt = nil }
        #expect(encrypted.withLock { $0 }.isEmpty)
        await store.send(.key(.control("e"))) { $0.safetyPrompt = .confirmEncrypt }
        await store.send(.key(.character("y"))) {
            $0.safetyPrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.encrypted("bob")) {
            $0.busySince = nil
            $0.banner = .init(
                "🔒 Encrypted: only your devices and theirs can read what is sent now. Ctrl-K shows the safety number to compare.",
                isError: false)
        }
        await store.receive(.conversationsLoaded(EncryptionFixtures.conversations)) {
            $0.conversations = EncryptionFixtures.conversations
        }
        #expect(encrypted.withLock { $0 } == ["bob"])
        #expect(store.state.conversationEncrypted)
        // Once on, Ctrl-E says so.
        await store.send(.key(.control("e"))) {
            $0.banner = .init("🔒 Already encrypted: only its members' devices read it.", isError: false)
        }
        await store.finish()
    }

    @Test func ctrlKShowsTheSafetyNumberAndAnyKeyGoesBack() async {
        var client = FakeBackend().client()
        client.safetyNumber = { peer in peer == "bob" ? EncryptionFixtures.digits : "" }
        let store = TestStore(initialState: Self.inConversation(), reducer: AppFeature(client: client))
        await store.send(.key(.control("k"))) { $0.busySince = Fixtures.start }
        await store.receive(.safetyNumberLoaded(.init(peer: "bob", digits: EncryptionFixtures.digits))) {
            $0.busySince = nil
            $0.screen = .safetyNumber
            $0.safetyNumber = .init(peer: "bob", digits: EncryptionFixtures.digits)
        }
        await store.send(.key(.escape)) {
            $0.screen = .conversation
            $0.safetyNumber = nil
        }
        await store.finish()
    }

    @Test func aGroupHasNoSafetyNumberOfItsOwn() async {
        let store = TestStore(
            initialState: Self.inConversation(ConversationKey.group("7")), reducer: AppFeature(client: .failing))
        await store.send(.key(.control("k"))) {
            $0.banner = .init(
                "Safety numbers are per person: open a member's own conversation and press Ctrl-K there.",
                isError: false)
        }
    }

    @Test func aDeviceChangeOfThePeerIsNoticedInTheirConversationOnly() async {
        let store = TestStore(initialState: Self.inConversation(), reducer: AppFeature(client: .failing))
        let changed = { (user: String) in
            Event(seq: 9, createdAt: .now(), payload: .deviceChanged(DeviceChangedNotice(user: user)))
        }
        await store.send(.sync(.event(changed("carol"))))
        await store.send(.sync(.event(changed("bob")))) {
            $0.notice = .init(
                "🔒 bob's devices changed: Ctrl-K shows the new safety number",
                until: Fixtures.start + AppState.noticeDuration)
        }
    }

    @Test func aMessageThatDidNotOpenShowsCouldNotBeVerifiedAndNoText() {
        let frame = AppView.render(EncryptionFixtures.conversation(), width: 80, height: 24).text
        #expect(frame.contains("🔒 could not be verified"))
        #expect(frame.contains("the old mill at nine") && frame.contains("🔒 bob"))
    }
}
