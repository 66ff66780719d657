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

/// What the accounts module offers other modules.
public protocol AccountService: Sendable {
    /// The logged-in user's context and an API client carrying their token.
    func session() async throws -> ClientSession
}

/// A logged-in user, as modules see it.
public struct ClientSession: Sendable {
    /// Whose session it is.
    public var user: UserContextInfo
    /// The network client.
    public var api: ChirpAPIClient
}

/// The user a session belongs to.
public struct UserContextInfo: Sendable, Hashable {
    /// The user's name as registered.
    public var username: String
    /// Their settings.
    public var settings: [String: String]
}

/// Why a client route cannot be shown.
public enum ClientAppError: Error, Sendable, CustomStringConvertible {
    /// No session: nobody logged in and no token given.
    case notLoggedIn

    public var description: String {
        switch self {
        case .notLoggedIn: "not logged in: run chirp login USER (or pass --token)"
        }
    }
}
