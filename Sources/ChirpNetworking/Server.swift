import Foundation
import Synchronization

/// Where requests go: a set of named environments with base URLs, the one in use, and an
/// offline switch under which every request fails at once with `NetworkError.offline`.
///
/// ```swift
/// let server = Server(environments: [.production: URL(string: "https://api.example.com")!,
///                                    .custom("staging"): URL(string: "https://staging.example.com")!])
/// server.switch(to: .custom("staging"))
/// ```
public final class Server: Sendable {
    /// A named deployment of the API.
    public enum Environment: Sendable, Hashable, CustomStringConvertible {
        case production
        case local
        case custom(String)

        public var description: String {
            switch self {
            case .production: "production"
            case .local: "local"
            case .custom(let name): name
            }
        }
    }

    private struct State {
        var environments: [Environment: URL]
        var current: Environment
        var offline: Bool
    }

    private let state: Mutex<State>

    /// Creates a server with environments; `current` must be one of them.
    public init(environments: [Environment: URL], current: Environment) {
        precondition(environments[current] != nil, "the current environment needs a URL")
        state = Mutex(State(environments: environments, current: current, offline: false))
    }

    /// A server with one environment, `.production`, at `baseURL`.
    public convenience init(baseURL: URL) {
        self.init(environments: [.production: baseURL], current: .production)
    }

    /// The environment in use.
    public var environment: Environment { state.withLock { $0.current } }

    /// The base URL of the environment in use.
    public var baseURL: URL { state.withLock { $0.environments[$0.current]! } }

    /// Every environment known, by name.
    public var environments: [Environment: URL] { state.withLock { $0.environments } }

    /// Adds or replaces an environment.
    public func register(_ environment: Environment, baseURL: URL) {
        state.withLock { $0.environments[environment] = baseURL }
    }

    /// Uses another environment from now on.
    public func `switch`(to environment: Environment) throws(NetworkError) {
        try state.withLock { (state: inout State) throws(NetworkError) in
            guard state.environments[environment] != nil else {
                throw NetworkError.unknownEnvironment(environment.description)
            }
            state.current = environment
        }
    }

    /// When true, every request fails at once with `NetworkError.offline` (for tests and for
    /// an app's airplane mode).
    public var isOffline: Bool {
        get { state.withLock { $0.offline } }
        set { state.withLock { $0.offline = newValue } }
    }
}
