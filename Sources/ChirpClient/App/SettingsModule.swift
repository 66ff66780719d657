import ChirpModels
import ChirpModules
import Foundation

/// Per-user settings and help: `chirp://settings` shows the settings,
/// `chirp://settings?theme=dark` sets them (in the current user's context, so each user keeps
/// their own); `chirp://help` lists the links.
public final class SettingsModule: Module, DestinationTextProvider {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .settings
    private let router = LockedValue<Router?>(nil)

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        router.set(context.router)
        context.route("chirp://settings") { match in .settings(changes: match.query) }
        context.route("chirp://help") { _ in .help }
    }

    /// The settings after applying the destination's changes, or the list of links.
    public func text(for destination: ClientDestination, in session: UserSession) async throws -> String {
        switch destination {
        case .settings(let changes):
            let user = session.context
            for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
                try user.setSetting(key, to: value.isEmpty ? nil : value)
            }
            let settings = user.settings()
            guard !settings.isEmpty else {
                return "No settings for \(user.username) yet (try chirp://settings?theme=dark)."
            }
            return settings.sorted { $0.key < $1.key }.map { entry -> String in
                TerminalText.escaped("\(entry.key) = \(entry.value)")
            }.joined(separator: "\n")
        default:
            return "Links: " + (router.get()?.patterns.sorted().joined(separator: ", ") ?? "")
        }
    }
}
