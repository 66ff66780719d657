import ChirpModels
import ChirpModules
import Foundation

/// Accounts: turns a token into a user context (switching to it and keeping the token, 0600)
/// or restores the last user's session; `chirp://me` shows who is logged in.
public final class AccountsModule: Module, AccountService {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .accounts
    private let environment = LockedValue<ModuleEnvironment?>(nil)

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        environment.set(context.environment)
        try? context.router.register("chirp://me") { _ in
            let session = try await self.session()
            let me = try await session.api.send(ChirpEndpoints.Me())
            return "\(me.username) (\(me.displayName)) · \(me.followersCount) followers · following \(me.followingCount)"
        }
    }

    /// The logged-in user's session, restoring or adopting a token.
    public func session() async throws -> ClientSession {
        guard let environment = environment.get() else { throw ModuleError.notLoaded }
        let app = try environment.require(AppContext.self)
        let api = try environment.require(ChirpAPIClient.self)
        if let token = api.token {
            // A token given on the command line: find out whose it is and switch to them.
            let me = try await api.send(ChirpEndpoints.Me())
            if app.currentUser?.username.lowercased() != me.username.lowercased() || app.currentUser?.token() != token {
                let user = try app.switchUser(to: me.username)
                try user.saveToken(token)
            }
        } else if let stored = app.currentUser?.token() {
            api.token = stored
        } else {
            throw ClientAppError.notLoggedIn
        }
        let user = app.currentUser!
        return ClientSession(user: UserContextInfo(username: user.username, settings: user.settings()), api: api)
    }
}
