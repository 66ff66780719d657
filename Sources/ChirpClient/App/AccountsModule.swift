import ChirpModels
import ChirpModules
import Foundation

/// Accounts: serves the logged-in user's `UserSession` to other modules (from the app's
/// `AccountManager`, which alone opens, adopts and stores sessions); `chirp://me` shows who
/// is logged in.
public final class AccountsModule: Module, AccountService, DestinationTextProvider {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .accounts
    private let sessions = LockedValue<SessionStore?>(nil)

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        sessions.set(context.environment.sessions)
        context.route("chirp://me") { _ in .me }
    }

    /// The logged-in user's session.
    public func session() async throws -> UserSession {
        guard let sessions = sessions.get() else { throw ModuleError.missingEnvironment("SessionStore") }
        return try await sessions.session()
    }

    /// `chirp://me`: name, display name and counts, from the server.
    public func text(for destination: ClientDestination, in session: UserSession) async throws -> String {
        let me = try await session.profile(session.username)
        return TerminalText.escaped(
            "\(me.username) (\(me.displayName)) · \(me.followersCount) followers · following \(me.followingCount)")
    }
}
