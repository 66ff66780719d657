import ChirpModules
import Foundation

/// Per-user settings: `chirp://settings` shows them, `chirp://settings?theme=dark` sets them
/// (in the current user's context, so each user keeps their own).
public final class SettingsModule: Module {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .settings

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        let manager = context.manager
        let environment = context.environment
        try? context.router.register("chirp://settings") { match in
            _ = try await manager.resolve(.accounts, as: (any AccountService).self).session()
            let user = try environment.require(AppContext.self).currentUser!
            for (key, value) in match.query.sorted(by: { $0.key < $1.key }) {
                try user.setSetting(key, to: value.isEmpty ? nil : value)
            }
            let settings = user.settings()
            guard !settings.isEmpty else { return "No settings for \(user.username) yet (try chirp://settings?theme=dark)." }
            return settings.sorted { $0.key < $1.key }.map { entry -> String in "\(entry.key) = \(entry.value)" }.joined(separator: "\n")
        }
    }
}
