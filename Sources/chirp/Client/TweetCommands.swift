import ArgumentParser
import ChirpClient
import ChirpModels
import Foundation

/// `chirp tweet TEXT…`.
struct TweetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweet", abstract: "Post a tweet (at most 280 characters).")

    @Argument(parsing: .remaining, help: "The tweet.") var words: [String]
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (_, tweet) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.tweet(words.joined(separator: " "))
        }
        try output.emit(tweet) { ["posted: \(tweet.text)"] }
    }
}

/// `chirp timeline`: your tweets and those of whom you follow, newest first.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "Your timeline, newest first.")

    @OptionGroup var page: PageLimitOptions
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (_, rows) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.timeline(limit: page.limit, refresh: true)
        }
        try output.emit(rows) {
            rows.isEmpty
                ? ["your timeline is empty: follow someone (chirp follow USER) or tweet"]
                : rows.map { "\($0.createdAt) @\($0.author): \($0.text)" }
        }
    }
}
