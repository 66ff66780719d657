import ChirpModules

extension ModuleIdentifier {
    /// Accounts: the session and who is logged in.
    public static let accounts: ModuleIdentifier = "accounts"
    /// Direct messages.
    public static let messaging: ModuleIdentifier = "messaging"
    /// Tweets, profiles and the timeline.
    public static let timeline: ModuleIdentifier = "timeline"
    /// Per-user settings.
    public static let settings: ModuleIdentifier = "settings"
}

/// What the accounts module offers other modules: the logged-in user's `UserSession` (the only
/// way a module reaches a user's data), kept by the app's `AccountManager`.
public protocol AccountService: Sendable {
    /// The logged-in user's session; `AccountError.notLoggedIn` when there is none.
    func session() async throws -> UserSession
}

/// A module that can show its destinations as text (what `chirp open` prints).
public protocol DestinationTextProvider: Sendable {
    /// The text of `destination`, read through `session`: lines joined by line feeds, each
    /// escaped (`TerminalText`), so what others wrote adds no line and no control character.
    func text(for destination: ClientDestination, in session: UserSession) async throws -> String
}

extension ModuleContext {
    /// Registers a route whose handler yields a destination; a pattern registered twice is a
    /// programming error (every `chirp://` route has one owner).
    func route(_ pattern: String, to destination: @escaping @Sendable (RouteMatch) -> ClientDestination) {
        do {
            try router.register(pattern) { match in destination(match) }
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
