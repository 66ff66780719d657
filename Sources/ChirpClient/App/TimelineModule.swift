import ChirpModels
import ChirpModules
import Foundation

/// Tweets: `chirp://timeline` and `chirp://user/:username` (profile and recent tweets).
public final class TimelineModule: Module {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .timeline

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        let manager = context.manager
        try? context.router.register("chirp://timeline") { match in
            let session = try await manager.resolve(.accounts, as: (any AccountService).self).session()
            let limit = match.query["limit"].flatMap(Int.init) ?? 20
            let page = try await session.api.send(ChirpEndpoints.Timeline(page: PageParameters(limit: min(max(limit, 1), 100))))
            guard !page.items.isEmpty else { return "Your timeline is empty: follow someone, or tweet." }
            return page.items.map(Self.line).joined(separator: "\n")
        }
        try? context.router.register("chirp://user/:username") { match in
            let session = try await manager.resolve(.accounts, as: (any AccountService).self).session()
            let name = match["username"]!
            let user = try await session.api.send(ChirpEndpoints.GetUser(name))
            let tweets = try await session.api.send(ChirpEndpoints.UserTweets(name, page: PageParameters(limit: 10)))
            var relation: [String] = []
            if user.followsYou == true { relation.append("follows you") }
            if user.followedByYou == true { relation.append("you follow") }
            let header = "\(user.displayName) @\(user.username) · \(user.followersCount) followers · following \(user.followingCount)"
                + (relation.isEmpty ? "" : " · " + relation.joined(separator: ", "))
            return ([header] + tweets.items.map(Self.line)).joined(separator: "\n")
        }
    }

    static func line(_ tweet: Tweet) -> String {
        "\(tweet.createdAt.rfc3339) @\(tweet.author.username): \(tweet.text)"
    }
}
