import ChirpStore

/// The login / register form: username and password fields, a mode switch, and a submit that
/// reports back to the app through `delegate`.
public struct LoginFeature: Reducer {
    public enum Field: Sendable, Equatable { case username, password }
    public enum Mode: Sendable, Equatable { case login, register }

    public struct State: Sendable, Equatable {
        public var username = TextInput(limit: 15)
        public var password = TextInput(limit: 128)
        public var focus: Field = .username
        public var mode: Mode = .login
        public var isSubmitting = false
        public var error: String?
        public init() {}
    }

    public enum Action: Sendable, Equatable {
        case key(Key)
        case finished(username: String)
        case failed(String)
        case delegate(Delegate)
        public enum Delegate: Sendable, Equatable { case loggedIn(String) }
    }

    let client: AppClient

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .key(let key):
            guard !state.isSubmitting else { return .none }
            switch key {
            case .tab, .backTab, .up, .down:
                state.focus = state.focus == .username ? .password : .username
            case .control("r"):
                state.mode = state.mode == .login ? .register : .login
                state.error = nil
            case .enter:
                if state.focus == .username, state.password.text.isEmpty {
                    state.focus = .password
                    return .none
                }
                return submit(&state)
            default:
                if state.focus == .username {
                    if case .character(let character) = key,
                        !(character.isLetter || character.isNumber || character == "_")
                    {
                        return .none
                    }
                    _ = state.username.handle(key)
                } else {
                    _ = state.password.handle(key)
                }
            }
            return .none
        case .finished(let username):
            state.isSubmitting = false
            state.password = TextInput(limit: 128)
            state.error = nil
            return .send(.delegate(.loggedIn(username)))
        case .failed(let message):
            state.isSubmitting = false
            state.error = message
            state.password = TextInput(limit: 128)
            state.focus = .password
            return .none
        case .delegate:
            return .none
        }
    }

    private func submit(_ state: inout State) -> Effect<Action> {
        let username = state.username.trimmed
        let password = state.password.text
        guard !username.isEmpty, !password.isEmpty else {
            state.error = "Type a username and a password."
            return .none
        }
        state.isSubmitting = true
        state.error = nil
        let register = state.mode == .register
        let client = self.client
        return .run { send in
            let name =
                register ? try await client.register(username, password) : try await client.login(username, password)
            await send(.finished(username: name))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }
}
