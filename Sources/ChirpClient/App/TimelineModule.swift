import ChirpModels
import ChirpModules
import Foundation

/// Tweets: `chirp://timeline`, `chirp://user/:username` (profile and recent tweets) and
/// `chirp://compose`.
public final class TimelineModule: Module, DestinationTextProvider {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .timeline

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        context.route("chirp://timeline") { match in .timeline(limit: ClientDestination.limit(match)) }
        context.route("chirp://user/:username") { match in .user(match["username"] ?? "") }
        context.route("chirp://compose") { _ in .compose }
    }

    /// The timeline, a profile, or how to tweet.
    public func text(for destination: ClientDestination, in session: UserSession) async throws -> String {
        switch destination {
        case .user(let name):
            let user = try await session.profile(name)
            var relation: [String] = []
            if user.followsYou == true { relation.append("follows you") }
            if user.followedByYou == true { relation.append("you follow") }
            let header =
                "\(user.displayName) @\(user.username) · \(user.followersCount) followers · following \(user.followingCount)"
                + (relation.isEmpty ? "" : " · " + relation.joined(separator: ", "))
            // Their tweets as this user's timeline holds them (own and followed authors).
            let tweets = try await session.timeline(limit: 100, refresh: true)
                .filter { $0.author.lowercased() == user.username.lowercased() }.prefix(10)
            return ([TerminalText.escaped(header)] + tweets.map(Self.line)).joined(separator: "\n")
        case .compose:
            return "Compose a tweet in the app (chirp), or: chirp tweet TEXT"
        case .timeline(let limit):
            let entries = try await session.timeline(limit: limit, refresh: true)
            guard !entries.isEmpty else { return "Your timeline is empty: follow someone, or tweet." }
            return entries.prefix(limit).map(Self.line).joined(separator: "\n")
        default:
            return ""
        }
    }

    static func line(_ tweet: TimelineEntry) -> String {
        TerminalText.escaped("\(tweet.createdAt) @\(tweet.author): \(tweet.text)")
    }
}
