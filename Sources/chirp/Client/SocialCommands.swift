import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp follow USER`.
struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Follow someone (their tweets join your timeline).")

    @Argument(help: "Who to follow.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in try await session.follow(username) }
        printLine("following \(username)")
    }
}

/// `chirp unfollow USER`.
struct UnfollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unfollow", abstract: "Stop following someone.")

    @Argument(help: "Who to unfollow.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in try await session.unfollow(username) }
        printLine("no longer following \(username)")
    }
}

/// `chirp followers [USER]` and `chirp following [USER]`: refreshed into the local database,
/// then printed from it.
struct FollowListCommand {
    static func show(
        _ relation: ChirpEndpoints.ListUsers.Relation, of username: String?, client: ClientOptions,
        output: OutputOptions
    ) async throws {
        let runtime = try ClientRuntime(client)
        let session = try await runtime.connectedSession()
        let owner = username ?? session.username
        let entries = try await runtime.run(username: session.username) {
            try await session.follows(relation, of: owner, refresh: true)
        }
        try output.emit(entries) {
            entries.isEmpty
                ? [relation == .followers ? "\(owner) has no followers yet" : "\(owner) follows nobody yet"]
                : entries.map { "\($0.username) (\($0.displayName))" }
        }
    }
}

/// `chirp followers [USER]`.
struct FollowersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "Who follows you (or USER), newest first.")
    @Argument(help: "Whose followers (default: yours).") var username: String?
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await FollowListCommand.show(.followers, of: username, client: client, output: output)
    }
}

/// `chirp following [USER]`.
struct FollowingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "following", abstract: "Who you (or USER) follow, newest first.")
    @Argument(help: "Whose list (default: yours).") var username: String?
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await FollowListCommand.show(.following, of: username, client: client, output: output)
    }
}
