import ChirpModules

/// Where a `chirp://` link leads, as the client's router answers it: the terminal app turns it
/// into navigation (`AppCoordinator`), `chirp open` outside a terminal prints its text
/// (`ChirpClientApp.text(for:)`). One value per screen, whichever front end shows it.
public enum ClientDestination: Sendable, Hashable {
    /// `chirp://conversations`
    case conversations
    /// `chirp://conversation/:username?limit=N`
    case conversation(peer: String, limit: Int)
    /// `chirp://timeline?limit=N`
    case timeline(limit: Int)
    /// `chirp://user/:username`: a profile and its recent tweets.
    case user(String)
    /// `chirp://me`: who is logged in.
    case me
    /// `chirp://settings?key=value`: the user's settings, with the query's changes applied.
    case settings(changes: [String: String])
    /// `chirp://compose`: a new tweet.
    case compose
    /// `chirp://help`: the links and keys.
    case help

    /// The module whose screen this is (it renders the destination's text).
    public var module: ModuleIdentifier {
        switch self {
        case .conversations, .conversation: .messaging
        case .timeline, .user, .compose: .timeline
        case .me: .accounts
        case .settings, .help: .settings
        }
    }

    /// A `limit` query item within 1…100, else `fallback`.
    static func limit(_ match: RouteMatch, default fallback: Int = 20) -> Int {
        min(max(match.query["limit"].flatMap(Int.init) ?? fallback, 1), 100)
    }
}
