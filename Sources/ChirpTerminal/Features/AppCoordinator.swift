import ChirpModules
import Foundation

/// Where the app can be sent from outside: a `chirp://` link becomes a navigation action
/// through the modules' `Router`, so `chirp open chirp://conversation/bob` opens that screen.
public enum AppDestination: Sendable, Equatable {
    case conversations
    case conversation(String)
    case timeline
    case compose
    case settings
    case help
}

/// Registers the app's screens as routes and turns links into actions.
public struct AppCoordinator: Sendable {
    public let router: Router

    /// A coordinator with the app's routes registered on a new router.
    public init() {
        router = Router()
        let routes: [(String, @Sendable (RouteMatch) -> AppDestination)] = [
            ("chirp://conversations", { _ in .conversations }),
            ("chirp://conversation/:username", { .conversation($0["username"] ?? "") }),
            ("chirp://timeline", { _ in .timeline }),
            ("chirp://compose", { _ in .compose }),
            ("chirp://settings", { _ in .settings }),
            ("chirp://help", { _ in .help }),
        ]
        for (pattern, destination) in routes {
            try? router.register(pattern) { match in AppFeature.Action.navigate(destination(match)) }
        }
    }

    /// The action a link stands for, or nil when the app has no such screen.
    public func action(for url: URL) async -> AppFeature.Action? {
        (try? await router.open(url)) as? AppFeature.Action
    }

    /// The patterns the app opens.
    public var patterns: [String] { router.patterns }
}
