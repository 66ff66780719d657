import ChirpClient
import ChirpModules
import Foundation

/// A screen of the terminal app that navigation can go to.
public enum AppDestination: Sendable, Equatable {
    case conversations
    case conversation(String)
    case timeline
    case compose
    case settings
    case help
}

/// Turns `chirp://` links into navigation. It registers no route: the client's `Router`
/// (owned by `ChirpClientApp`, routes registered by its modules) answers with a
/// `ClientDestination`, and the coordinator maps it to one of the app's screens.
public struct AppCoordinator: Sendable {
    /// The client's router.
    public let router: Router

    /// A coordinator over the client's router.
    public init(router: Router) {
        self.router = router
    }

    /// The action a link stands for, or nil when the app has no such screen (then `chirp open`
    /// prints the destination's text instead).
    public func action(for url: URL) async -> AppFeature.Action? {
        guard let destination = (try? await router.open(url)) as? ClientDestination else { return nil }
        return Self.action(for: destination)
    }

    /// The navigation a destination stands for in the terminal app, if it has that screen.
    public static func action(for destination: ClientDestination) -> AppFeature.Action? {
        switch destination {
        case .conversations: .navigate(.conversations)
        case .conversation(let peer, _): .navigate(.conversation(peer))
        case .timeline: .navigate(.timeline)
        case .compose: .navigate(.compose)
        case .settings: .navigate(.settings)
        case .help: .navigate(.help)
        case .user, .me: nil
        }
    }
}
