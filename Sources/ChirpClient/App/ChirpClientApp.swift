import ChirpModules
import ChirpNetworking
import Foundation
import Synchronization

/// The client, assembled once per process for every front end (the terminal app, `chirp open`,
/// the client commands): the `AccountManager` over one client directory and server (its
/// `AppContext`), the `ModuleManager` with the accounts, messaging, timeline and settings
/// modules, the one `Router` that owns every `chirp://` route, the start-up `Initiator`
/// (`start`), the live sync with its listeners, and the process's diagnostics.
///
/// A `modules.json` in the client directory can disable or reorder modules.
public final class ChirpClientApp: Sendable {
    /// Every module the client has, in default load order.
    public static let moduleTypes: [any Module.Type] = [
        AccountsModule.self, MessagingModule.self, TimelineModule.self, SettingsModule.self,
    ]

    /// Register, log in, log out, reopen: the one owner of sessions.
    public let accounts: AccountManager
    /// The loaded modules.
    public let modules: ModuleManager
    /// Every `chirp://` route, each registered once by the module that owns it.
    public let router: Router
    /// The live sync and who listens to it.
    public let liveSync = LiveSync()
    /// The process's logging and error reports, when this run has them.
    public let diagnostics: ClientDiagnostics?
    let sessions: SessionStore

    /// The client directory and its user contexts.
    public var context: AppContext { accounts.context }
    /// The current session, once start-up (or a login) opened one.
    public var session: UserSession? { sessions.current }

    /// Assembles the client over `accounts`; `token` is a session token to adopt (`--token`).
    public init(accounts: AccountManager, token: String? = nil, diagnostics: ClientDiagnostics? = nil) throws {
        self.accounts = accounts
        self.diagnostics = diagnostics
        sessions = SessionStore(accounts: accounts, token: token)
        modules = ModuleManager()
        for type in Self.moduleTypes { try modules.register(type) }
        let router = Router()
        self.router = router
        router.setFallback { match in RouteNotFound(url: match.url.absoluteString, known: router.patterns) }
        var environment = ModuleEnvironment()
        environment.set(sessions)
        let configurationURL = accounts.context.root.appendingPathComponent("modules.json")
        let configuration =
            FileManager.default.fileExists(atPath: configurationURL.path)
            ? try ModuleConfiguration(contentsOf: configurationURL) : nil
        try modules.loadModules(configuration: configuration, router: router, environment: environment)
    }

    /// The client on the directory `home` for the server at `server`.
    public convenience init(home: URL, server: URL, token: String? = nil, diagnostics: ClientDiagnostics? = nil) throws
    {
        try self.init(accounts: AccountManager(home: home, serverURL: server), token: token, diagnostics: diagnostics)
    }

    // MARK: start-up and sessions

    /// Runs start-up (`database` → `session` → `log-reporter` → `sync`) for whoever is logged in
    /// (or whose `--token` was given); the report names a failed step.
    public func start(sync: StartupSync) async -> StartupReport {
        await ClientStartup(sessions: sessions, diagnostics: diagnostics, liveSync: liveSync).run(sync: sync)
    }

    /// Logs in through the account manager, then runs the rest of start-up for that session.
    public func login(_ username: String, password: String, sync: StartupSync) async throws -> StartupReport {
        let session = try await accounts.login(username, password: password)
        return await ClientStartup(sessions: sessions, diagnostics: diagnostics, liveSync: liveSync).run(
            sync: sync, opened: session)
    }

    /// Registers through the account manager, then runs the rest of start-up for that session.
    public func register(_ username: String, password: String, sync: StartupSync) async throws -> StartupReport {
        let session = try await accounts.register(username, password: password)
        return await ClientStartup(sessions: sessions, diagnostics: diagnostics, liveSync: liveSync).run(
            sync: sync, opened: session)
    }

    /// Stops sync and logs out through the account manager (revoking the token, wiping the
    /// user's local data).
    @discardableResult
    public func logout() async throws -> (username: String, revoked: Bool) {
        liveSync.stop()
        sessions.set(nil)
        return try await accounts.logout()
    }

    /// Stops sync, deletes the account on the server (the password again) and wipes the user's
    /// local data, as `logout` does. A wrong password throws the server's 401, keeps everything
    /// and starts the live sync again if it was running.
    @discardableResult
    public func deleteAccount(password: String) async throws -> String {
        // The live sync to start again if the server refuses (it was running).
        let session = liveSync.connection != nil ? sessions.current : nil
        liveSync.stop()
        let username: String
        do {
            username = try await accounts.deleteAccount(password: password)
        } catch {
            if let session { liveSync.start(session) }
            throw error
        }
        sessions.set(nil)
        return username
    }

    /// The logged-in session (opening it if start-up has not): what modules get.
    public func currentSession() async throws -> UserSession {
        try await modules.resolve(.accounts, as: (any AccountService).self).session()
    }

    // MARK: links

    /// Where a link leads, or `RouteNotFound`.
    public func destination(for url: URL) async throws -> ClientDestination? {
        try await router.open(url) as? ClientDestination
    }

    /// The text of a destination, rendered by the module that owns it through the session.
    public func text(for destination: ClientDestination) async throws -> String {
        let session = try await currentSession()
        let module = try modules.resolve(destination.module, as: (any DestinationTextProvider).self)
        return try await module.text(for: destination, in: session)
    }

    /// Shows a link as text (what `chirp open` prints), or returns `RouteNotFound`.
    public func open(_ url: URL) async throws -> any Sendable {
        let result = try await router.open(url)
        guard let destination = result as? ClientDestination else { return result }
        return try await text(for: destination)
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
