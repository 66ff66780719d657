import ChirpModels
import ChirpNetworking
import ChirpStore

/// The account screens reached from Settings: the user's sessions (end one, after a
/// confirmation), changing the password (current, new, repeated; nothing echoed), and
/// deleting the account (the password, then an explicit `y`). Reports back to the app through
/// `delegate`: back to Settings, or the account is gone.
public struct AccountFeature: Reducer {
    public enum Page: Sendable, Equatable { case sessions, password, delete }

    public struct State: Sendable, Equatable {
        public var page: Page = .sessions
        public var sessions: [SessionSummary] = []
        public var selectedSession = 0
        /// The session `x` asked to end, waiting for `y`.
        public var confirmingEnd: String?
        /// The three password fields: current, new, new again.
        public var passwords = [TextInput(limit: 128), TextInput(limit: 128), TextInput(limit: 128)]
        public var focus = 0
        /// Deleting: the password was typed; `y` deletes.
        public var confirmingDelete = false
        public var isWorking = false
        public var error: String?
        public var notice: String?
        public init() {}

        /// The state of a page freshly opened.
        public init(page: Page) {
            self.init()
            self.page = page
            isWorking = page == .sessions
        }
    }

    public enum Action: Sendable, Equatable {
        case key(Key)
        case sessionsLoaded([SessionSummary])
        case sessionEnded
        case passwordChanged
        case failed(String)
        case delegate(Delegate)
        public enum Delegate: Sendable, Equatable {
            /// Back to Settings, with a banner when something changed.
            case done(banner: String?)
            /// The account is deleted and this device's data of it wiped.
            case accountDeleted
        }
    }

    let client: AppClient

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .key(let key):
            guard !state.isWorking else { return .none }
            switch state.page {
            case .sessions: return sessionsKey(key, &state)
            case .password: return passwordKey(key, &state)
            case .delete: return deleteKey(key, &state)
            }
        case .sessionsLoaded(let sessions):
            state.isWorking = false
            state.sessions = sessions
            state.selectedSession = min(state.selectedSession, max(sessions.count - 1, 0))
            return .none
        case .sessionEnded:
            state.notice = "Session ended: its device is logged out."
            return loadSessions()
        case .passwordChanged:
            state = State(page: .password)
            return .send(.delegate(.done(banner: "Password changed; your other sessions are ended.")))
        case .failed(let message):
            state.isWorking = false
            state.error = message
            // A password typed again, whatever went wrong (nothing of it stays on screen).
            if state.page != .sessions {
                state.passwords = State().passwords
                state.focus = 0
            }
            return .none
        case .delegate:
            return .none
        }
    }

    /// Reads the session list (the page's first effect, and after ending one).
    func loadSessions() -> Effect<Action> {
        let client = self.client
        return .run { send in
            await send(.sessionsLoaded(try await client.sessions()))
        } catch: { error, send in
            await send(.failed(Self.describe(error)))
        }
    }

    private func sessionsKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        if let id = state.confirmingEnd {
            state.confirmingEnd = nil
            guard key == .character("y") || key == .character("Y") else { return .none }
            state.isWorking = true
            let client = self.client
            return .run { send in
                try await client.endSession(id)
                await send(.sessionEnded)
            } catch: { error, send in
                await send(.failed(Self.describe(error)))
            }
        }
        state.error = nil
        state.notice = nil
        switch key {
        case .up, .character("k"):
            state.selectedSession = max(state.selectedSession - 1, 0)
        case .down, .character("j"):
            state.selectedSession = min(state.selectedSession + 1, max(state.sessions.count - 1, 0))
        case .character("x"), .backspace:
            guard state.sessions.indices.contains(state.selectedSession) else { return .none }
            let session = state.sessions[state.selectedSession]
            if session.current {
                state.error = "That is this device's session: log out with L instead."
            } else {
                state.confirmingEnd = session.id
            }
        case .character("r"):
            state.isWorking = true
            return loadSessions()
        case .escape:
            return .send(.delegate(.done(banner: nil)))
        default:
            break
        }
        return .none
    }

    private func passwordKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        switch key {
        case .escape:
            state = State(page: .password)
            return .send(.delegate(.done(banner: nil)))
        case .tab, .down:
            state.focus = (state.focus + 1) % 3
        case .backTab, .up:
            state.focus = (state.focus + 2) % 3
        case .enter:
            if state.passwords[state.focus].text.isEmpty
                || state.focus < 2 && state.passwords[state.focus + 1].text.isEmpty
            {
                if state.focus < 2, !state.passwords[state.focus].text.isEmpty { state.focus += 1 }
                return .none
            }
            return changePassword(&state)
        default:
            if state.passwords[state.focus].handle(key) { state.error = nil }
        }
        return .none
    }

    private func changePassword(_ state: inout State) -> Effect<Action> {
        let current = state.passwords[0].text
        let new = state.passwords[1].text
        guard !current.isEmpty, !new.isEmpty else {
            state.error = "Type the current password and the new one twice."
            return .none
        }
        guard new == state.passwords[2].text else {
            state.error = "The two new passwords differ: type them again."
            state.passwords[1] = TextInput(limit: 128)
            state.passwords[2] = TextInput(limit: 128)
            state.focus = 1
            return .none
        }
        do {
            try Validation.password(new)
        } catch {
            state.error = "The new password: \(error)"
            return .none
        }
        state.isWorking = true
        state.error = nil
        let client = self.client
        return .run { send in
            try await client.changePassword(current, new)
            await send(.passwordChanged)
        } catch: { error, send in
            await send(.failed(Self.describe(error)))
        }
    }

    private func deleteKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        if state.confirmingDelete {
            state.confirmingDelete = false
            guard key == .character("y") || key == .character("Y") else {
                state.passwords[0] = TextInput(limit: 128)
                return .none
            }
            state.isWorking = true
            let password = state.passwords[0].text
            let client = self.client
            return .run { send in
                try await client.deleteAccount(password)
                await send(.delegate(.accountDeleted))
            } catch: { error, send in
                await send(.failed(Self.describe(error)))
            }
        }
        switch key {
        case .escape:
            state = State(page: .delete)
            return .send(.delegate(.done(banner: nil)))
        case .enter:
            guard !state.passwords[0].text.isEmpty else {
                state.error = "Type your password to delete the account."
                return .none
            }
            state.error = nil
            state.confirmingDelete = true
        default:
            if state.passwords[0].handle(key) { state.error = nil }
        }
        return .none
    }

    /// A failure as one line; a wrong password says so (not "username or password").
    static func describe(_ error: any Error) -> String {
        if case NetworkError.server(401, "invalid_credentials", _, _)? = error as? NetworkError {
            return "The password is wrong: nothing changed. Type it again."
        }
        return AppClient.describe(error)
    }
}
