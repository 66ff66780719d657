import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// The account pages reached from Settings: sessions (end one after a `y`), password change
/// (three fields, nothing echoed, mismatches and a wrong current password said), and account
/// deletion (password, then `y`; back to the login screen with the data wiped).
/// Sessions and a fake account backend for the account screens.
enum AccountFixtures {
    static let sessions = [
        SessionSummary(
            id: "s-here", createdAt: Timestamp(millisecondsSince1970: 1_764_000_000_000),
            lastUsedAt: Timestamp(millisecondsSince1970: 1_764_040_000_000), userAgent: "chirp-terminal/1.0 (Linux)",
            current: true),
        SessionSummary(
            id: "s-phone", createdAt: Timestamp(millisecondsSince1970: 1_763_000_000_000),
            lastUsedAt: Timestamp(millisecondsSince1970: 1_763_900_000_000), userAgent: "chirp-web/2 (iPhone)",
            current: false),
    ]

    /// The sessions page, loaded, with the phone's session selected.
    static func sessionsPage() -> AccountFeature.State {
        var account = AccountFeature.State(page: .sessions)
        account.isWorking = false
        account.sessions = sessions
        account.selectedSession = 1
        return account
    }

    /// What the account calls did.
    final class Calls: Sendable {
        let log = Mutex<[String]>([])
        func client(_ backend: FakeBackend, wrongPassword: String? = nil) -> AppClient {
            var client = backend.client()
            let remaining = Mutex(AccountFixtures.sessions)
            client.sessions = { remaining.withLock { $0 } }
            client.endSession = { id in
                self.log.withLock { $0.append("end \(id)") }
                remaining.withLock { $0.removeAll { $0.id == id } }
            }
            client.changePassword = { current, new in
                if current == wrongPassword {
                    throw NetworkError.server(
                        status: 401, code: "invalid_credentials", message: "The password is wrong.", field: nil)
                }
                self.log.withLock { $0.append("password \(current)→\(new)") }
            }
            client.deleteAccount = { password in
                if password == wrongPassword {
                    throw NetworkError.server(
                        status: 401, code: "invalid_credentials", message: "The password is wrong.", field: nil)
                }
                self.log.withLock { $0.append("delete \(password)") }
            }
            return client
        }
    }

}

@MainActor
@Suite("Terminal app: account screens")
struct AccountScreensTests {
    static func inSettings(at row: Int) -> AppState {
        var state = AppFeatureTests.loggedIn(.settings)
        state.settingsSelection = AppState.bellSettingsRow + 1 + row
        return state
    }

    static func type(
        _ text: String, into store: TestStore<AppState, AppFeature.Action>,
        _ update: @escaping (inout AppState, String) -> Void
    ) async {
        var typed = ""
        for character in text {
            typed.append(character)
            let sofar = typed
            await store.send(.key(.character(character))) { update(&$0, sofar) }
        }
    }

    @Test func theSessionsPageListsThemAndEndsTheSelectedOneAfterAYes() async {
        let calls = AccountFixtures.Calls()
        let store = TestStore(
            initialState: Self.inSettings(at: 0), reducer: AppFeature(client: calls.client(FakeBackend())))
        await store.send(.key(.enter)) {
            $0.screen = .account
            $0.account = AccountFeature.State(page: .sessions)
        }
        await store.receive(.account(.sessionsLoaded(AccountFixtures.sessions))) {
            $0.account.isWorking = false
            $0.account.sessions = AccountFixtures.sessions
        }
        // This device's own session is not ended here.
        await store.send(.key(.character("x"))) {
            $0.account.error = "That is this device's session: log out with L instead."
        }
        await store.send(.key(.down)) {
            $0.account.error = nil
            $0.account.selectedSession = 1
        }
        await store.send(.key(.character("x"))) { $0.account.confirmingEnd = "s-phone" }
        // Any other key cancels.
        await store.send(.key(.character("n"))) { $0.account.confirmingEnd = nil }
        #expect(calls.log.withLock { $0 }.isEmpty)
        await store.send(.key(.character("x"))) { $0.account.confirmingEnd = "s-phone" }
        await store.send(.key(.character("y"))) {
            $0.account.confirmingEnd = nil
            $0.account.isWorking = true
        }
        await store.receive(.account(.sessionEnded)) { $0.account.notice = "Session ended: its device is logged out." }
        await store.receive(.account(.sessionsLoaded([AccountFixtures.sessions[0]]))) {
            $0.account.isWorking = false
            $0.account.sessions = [AccountFixtures.sessions[0]]
            $0.account.selectedSession = 0
        }
        #expect(calls.log.withLock { $0 } == ["end s-phone"])
        await store.send(.key(.escape)) { $0.account.notice = nil }
        await store.receive(.account(.delegate(.done(banner: nil)))) { $0.screen = .settings }
        await store.finish()
    }

    @Test func changingThePasswordChecksTheRepeatAndSaysAWrongCurrentOne() async {
        let calls = AccountFixtures.Calls()
        let store = TestStore(
            initialState: Self.inSettings(at: 1),
            reducer: AppFeature(client: calls.client(FakeBackend(), wrongPassword: "guess")))
        await store.send(.key(.enter)) {
            $0.screen = .account
            $0.account = AccountFeature.State(page: .password)
        }
        await Self.type("guess", into: store) { $0.account.passwords[0].text = $1 }
        await store.send(.key(.tab)) { $0.account.focus = 1 }
        await Self.type("new horse", into: store) { $0.account.passwords[1].text = $1 }
        await store.send(.key(.enter)) { $0.account.focus = 2 }
        await Self.type("new hose", into: store) { $0.account.passwords[2].text = $1 }
        await store.send(.key(.enter)) {
            $0.account.error = "The two new passwords differ: type them again."
            $0.account.passwords[1].text = ""
            $0.account.passwords[2].text = ""
            $0.account.focus = 1
        }
        await Self.type("new horse", into: store) {
            $0.account.error = nil
            $0.account.passwords[1].text = $1
        }
        await store.send(.key(.tab)) { $0.account.focus = 2 }
        await Self.type("new horse", into: store) { $0.account.passwords[2].text = $1 }
        await store.send(.key(.enter)) { $0.account.isWorking = true }
        await store.receive(.account(.failed("The password is wrong: nothing changed. Type it again."))) {
            $0.account.isWorking = false
            $0.account.error = "The password is wrong: nothing changed. Type it again."
            $0.account = {
                var account = AccountFeature.State(page: .password)
                account.error = "The password is wrong: nothing changed. Type it again."
                return account
            }()
        }
        // Nothing typed is drawn: the fields show dots.
        await Self.type("right", into: store) {
            $0.account.error = nil
            $0.account.passwords[0].text = $1
        }
        #expect(!AppView.render(store.state, width: 80, height: 24).text.contains("right"))
        await store.send(.key(.tab)) { $0.account.focus = 1 }
        await Self.type("new horse", into: store) { $0.account.passwords[1].text = $1 }
        await store.send(.key(.tab)) { $0.account.focus = 2 }
        await Self.type("new horse", into: store) { $0.account.passwords[2].text = $1 }
        await store.send(.key(.enter)) { $0.account.isWorking = true }
        await store.receive(.account(.passwordChanged)) { $0.account = AccountFeature.State(page: .password) }
        await store.receive(.account(.delegate(.done(banner: "Password changed; your other sessions are ended.")))) {
            $0.screen = .settings
            $0.banner = .init("Password changed; your other sessions are ended.", isError: false)
        }
        #expect(calls.log.withLock { $0 } == ["password right→new horse"])
        await store.finish()
    }

    @Test func deletingTheAccountAsksForThePasswordThenAYesAndReturnsToLogin() async {
        let calls = AccountFixtures.Calls()
        var state = Self.inSettings(at: 2)
        state.theme = .light
        state.conversations = Fixtures.conversations
        let store = TestStore(
            initialState: state, reducer: AppFeature(client: calls.client(FakeBackend(), wrongPassword: "guess")))
        await store.send(.key(.enter)) {
            $0.screen = .account
            $0.account = AccountFeature.State(page: .delete)
        }
        await store.send(.key(.enter)) { $0.account.error = "Type your password to delete the account." }
        await Self.type("guess", into: store) {
            $0.account.error = nil
            $0.account.passwords[0].text = $1
        }
        await store.send(.key(.enter)) { $0.account.confirmingDelete = true }
        #expect(AppView.render(store.state, width: 80, height: 24).text.contains("Delete the account alice for good?"))
        await store.send(.key(.character("y"))) {
            $0.account.confirmingDelete = false
            $0.account.isWorking = true
        }
        await store.receive(.account(.failed("The password is wrong: nothing changed. Type it again."))) {
            $0.account.isWorking = false
            $0.account.error = "The password is wrong: nothing changed. Type it again."
            $0.account.passwords[0].text = ""
        }
        await Self.type("pw", into: store) {
            $0.account.error = nil
            $0.account.passwords[0].text = $1
        }
        await store.send(.key(.enter)) { $0.account.confirmingDelete = true }
        // Anything but y cancels, and forgets the password.
        await store.send(.key(.escape)) {
            $0.account.confirmingDelete = false
            $0.account.passwords[0].text = ""
        }
        await Self.type("pw", into: store) { $0.account.passwords[0].text = $1 }
        await store.send(.key(.enter)) { $0.account.confirmingDelete = true }
        await store.send(.key(.character("y"))) {
            $0.account.confirmingDelete = false
            $0.account.isWorking = true
        }
        await store.receive(.account(.delegate(.accountDeleted))) {
            $0 = AppState(now: Fixtures.start, theme: .light)
            $0.banner = .init("Account deleted; its data on this device is wiped too.", isError: false)
        }
        #expect(calls.log.withLock { $0 } == ["delete pw"])
        await store.finish()
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func theAccountPagesMatchTheirReferenceFrames(width: Int, height: Int) throws {
        var password = RenderingTests.state(.account)
        password.account = AccountFeature.State(page: .password)
        password.account.passwords[0].text = "secret"
        password.account.passwords[1].text = "longer secret"
        password.account.focus = 1
        password.account.error = "The two new passwords differ: type them again."
        var delete = RenderingTests.state(.account)
        delete.account = AccountFeature.State(page: .delete)
        delete.account.passwords[0].text = "secret"
        delete.account.confirmingDelete = true
        var ending = RenderingTests.state(.account)
        ending.account.confirmingEnd = "s-phone"
        for (name, state) in [
            ("account-password", password), ("account-delete", delete), ("account-sessions-confirm", ending),
        ] {
            let frame = AppView.render(state, width: width, height: height)
            let url = RenderingTests.framesDirectory.appendingPathComponent("\(name)-\(width)x\(height).txt")
            if ProcessInfo.processInfo.environment["RECORD_FRAMES"] != nil {
                try (frame.text + "\n").write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            #expect(
                frame.text + "\n" == (try String(contentsOf: url, encoding: .utf8)), "\(name) at \(width)×\(height)")
            #expect(!frame.text.contains("secret"), "a password is never drawn")
        }
    }
}
