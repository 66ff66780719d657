import ChirpModels
import ChirpStore

/// The tweet composer: a multi-line input with a live count to 280 (Unicode code points, as
/// the server counts), posting on Enter.
public struct ComposeFeature: Reducer {
    public struct State: Sendable, Equatable {
        public var input = TextInput()
        public var isPosting = false
        public var error: String?
        public init() {}

        /// Characters used, as the server counts them.
        public var count: Int { input.trimmed.unicodeScalars.count }
        /// Whether the text may be posted.
        public var canPost: Bool { count > 0 && count <= Validation.tweetLength.upperBound }
    }

    public enum Action: Sendable, Equatable {
        case key(Key)
        case posted
        case failed(String)
        case delegate(Delegate)
        public enum Delegate: Sendable, Equatable { case done(posted: Bool) }
    }

    let client: AppClient

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .key(.escape):
            return state.isPosting ? .none : .send(.delegate(.done(posted: false)))
        case .key(.enter):
            guard !state.isPosting else { return .none }
            guard state.canPost else {
                state.error =
                    state.count == 0
                    ? "Type something first." : "A tweet is at most 280 characters: remove \(state.count - 280)."
                return .none
            }
            state.isPosting = true
            state.error = nil
            let text = state.input.trimmed
            let client = self.client
            return .run { send in
                try await client.tweet(text)
                await send(.posted)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .key(let key):
            guard !state.isPosting else { return .none }
            if state.input.handle(key, multiline: true) { state.error = nil }
            return .none
        case .posted:
            state = State()
            return .send(.delegate(.done(posted: true)))
        case .failed(let message):
            state.isPosting = false
            state.error = message
            return .none
        case .delegate:
            return .none
        }
    }
}
