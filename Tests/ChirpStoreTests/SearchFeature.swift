import ChirpStore
import Synchronization

/// A small feature for the store's tests: a query with a debounced, cancellable search, a
/// child counter, and a clock-free dependency.
struct SearchFeature: Reducer {
    struct State: Equatable, Sendable {
        var query = ""
        var results: [String] = []
        var isSearching = false
        var error: String?
        var counter = Counter.State()
    }

    enum Action: Equatable, Sendable {
        case queryChanged(String)
        case searchResponse([String])
        case searchFailed(String)
        case cancelTapped
        case counter(Counter.Action)
    }

    /// Dependencies as a struct of closures: live, test and failing values.
    struct Client: Sendable {
        var search: @Sendable (String) async throws -> [String]
    }

    enum CancelID { case search }

    let client: Client

    var body: CombineReducers<State, Action> {
        CombineReducers([
            Scope(
                state: \State.counter,
                action: ActionLink(embed: Action.counter, extract: { if case .counter(let a) = $0 { a } else { nil } }),
                child: Counter()),
            Reduce { state, action in self.core(&state, action) },
        ])
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> { body.reduce(into: &state, action: action) }

    private func core(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.results = []
                state.isSearching = false
                return .cancel(id: CancelID.search)
            }
            state.isSearching = true
            let client = self.client
            return .run { send in
                await send(.searchResponse(try await client.search(query)))
            } catch: { error, send in
                await send(.searchFailed("\(error)"))
            }
            .cancellable(id: CancelID.search, cancelInFlight: true)
        case .searchResponse(let results):
            state.isSearching = false
            state.results = results
            return .none
        case .searchFailed(let message):
            state.isSearching = false
            state.error = message
            return .none
        case .cancelTapped:
            state.isSearching = false
            return .cancel(id: CancelID.search)
        case .counter:
            return .none
        }
    }
}

struct Counter: Reducer {
    struct State: Equatable, Sendable { var count = 0 }
    enum Action: Equatable, Sendable { case increment, incrementTwiceLater, reset }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .incrementTwiceLater:
            return .merge(.send(.increment), .run { send in await send(.increment) })
        case .reset:
            state.count = 0
            return .none
        }
    }
}

/// A search whose answer the test releases by hand.
final class Gate: Sendable {
    private let waiting = Mutex<[String: CheckedContinuation<[String], any Error>]>([:])
    func search(_ query: String) async throws -> [String] {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in waiting.withLock { $0[query] = continuation } }
        } onCancel: {
            self.waiting.withLock { $0.removeValue(forKey: query) }?.resume(throwing: CancellationError())
        }
    }
    var pending: [String] { waiting.withLock { Array($0.keys) } }
    func answer(_ query: String, with results: [String]) {
        waiting.withLock { $0.removeValue(forKey: query) }?.resume(returning: results)
    }
    func fail(_ query: String, _ error: any Error) {
        waiting.withLock { $0.removeValue(forKey: query) }?.resume(throwing: error)
    }
}
