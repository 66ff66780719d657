import ChirpModules
import Foundation
import Synchronization

/// The client app assembled from modules (accounts, messaging, timeline, settings) over one
/// client directory and one server: modules register their routes, and `open(_:)` shows a
/// `chirp://` URL. A `modules.json` in the client directory can disable or reorder modules.
public final class ChirpClientApp: Sendable {
    /// Every module the client has, in default load order.
    public static let moduleTypes: [any Module.Type] = [AccountsModule.self, MessagingModule.self, TimelineModule.self, SettingsModule.self]

    /// The client directory and its user contexts.
    public let context: AppContext
    /// The network client.
    public let api: ChirpAPIClient
    /// The loaded modules.
    public let modules: ModuleManager
    /// Where routes are registered.
    public let router: Router

    /// Builds the app: `home` is the client directory, `token` a session token to adopt.
    public init(home: URL, server: URL, token: String? = nil) throws {
        context = try AppContext(root: home)
        api = ChirpAPIClient(baseURL: server, token: token)
        modules = ModuleManager()
        for type in Self.moduleTypes { try modules.register(type) }
        let router = Router()
        self.router = router
        router.setFallback { match in RouteNotFound(url: match.url.absoluteString, known: router.patterns) }
        var environment = ModuleEnvironment()
        environment.set(context)
        environment.set(api)
        let configurationURL = home.appendingPathComponent("modules.json")
        let configuration = FileManager.default.fileExists(atPath: configurationURL.path) ? try ModuleConfiguration(contentsOf: configurationURL) : nil
        try modules.loadModules(configuration: configuration, router: router, environment: environment)
    }

    /// Shows a route: the text of its screen, or `RouteNotFound`.
    public func open(_ url: URL) async throws -> any Sendable {
        try await router.open(url)
    }
}

/// What the fallback route returns: nothing handles the URL; here is what does exist.
public struct RouteNotFound: Sendable, Hashable, CustomStringConvertible {
    /// The URL opened.
    public var url: String
    /// The patterns that do exist.
    public var known: [String]

    public var description: String {
        "nothing handles \(url); try one of: \(known.sorted().joined(separator: ", "))"
    }
}

/// A value behind a lock, for module state set once at load time.
final class LockedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    func get() -> Value { storage.withLock { $0 } }
    func set(_ value: Value) { storage.withLock { $0 = value } }
}
