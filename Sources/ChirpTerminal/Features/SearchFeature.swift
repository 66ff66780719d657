import ChirpClient
import ChirpModels
import ChirpStore

/// Searching messages (`/`): words typed, Enter searches (every word, newest first), ↑↓ pick a
/// result, Enter on the same words opens its conversation at that message. Opened from a
/// conversation it searches that one; Tab switches to all conversations and back.
public struct SearchFeature: Reducer {
    public struct State: Sendable, Equatable {
        public var input = TextInput(limit: Validation.searchQueryLength)
        /// Only this peer's conversation, when set.
        public var peer: String?
        /// The conversation search was opened from (what Tab switches back to).
        public var openedFrom: String?
        public var results: [Message] = []
        public var selected = 0
        /// The words the results are for (nil: nothing searched yet).
        public var searchedFor: String?
        public var isSearching = false
        public var error: String?

        public init(openedFrom peer: String? = nil) {
            self.peer = peer
            openedFrom = peer
        }
    }

    public enum Action: Sendable, Equatable {
        case key(Key)
        case loaded(query: String, results: [Message])
        case failed(String)
        case delegate(Delegate)
        public enum Delegate: Sendable, Equatable {
            /// Open the conversation with `peer` at the message `messageId` (its local id).
            case open(peer: String, messageId: String)
            case close
        }
    }

    let client: AppClient
    /// The user searching (a result's peer is the other party).
    let username: String

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .key(.escape):
            return .send(.delegate(.close))
        case .key(.tab):
            guard state.openedFrom != nil else { return .none }
            state.peer = state.peer == nil ? state.openedFrom : nil
            state.searchedFor = nil  // the same words search again, in the other scope
            return .none
        case .key(.up):
            state.selected = max(state.selected - 1, 0)
            return .none
        case .key(.down):
            state.selected = min(state.selected + 1, max(state.results.count - 1, 0))
            return .none
        case .key(.enter):
            let query = state.input.trimmed
            if query == state.searchedFor, state.results.indices.contains(state.selected) {
                let message = state.results[state.selected]
                return .send(
                    .delegate(
                        .open(
                            peer: peer(of: message),
                            messageId: LocalMessage.key(
                                sender: message.sender, clientMessageId: message.clientMessageId))))
            }
            guard !query.isEmpty, !state.isSearching else { return .none }
            state.isSearching = true
            state.error = nil
            let client = self.client
            let peer = state.peer
            return .run { send in
                await send(.loaded(query: query, results: try await client.search(query, peer)))
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .key(let key):
            if state.input.handle(key) { state.error = nil }
            return .none
        case .loaded(let query, let results):
            state.isSearching = false
            state.searchedFor = query
            state.results = results
            state.selected = 0
            return .none
        case .failed(let message):
            state.isSearching = false
            state.error = message
            return .none
        case .delegate:
            return .none
        }
    }

    /// The other party of a message.
    func peer(of message: Message) -> String {
        message.sender.lowercased() == username.lowercased() ? message.recipient : message.sender
    }
}
