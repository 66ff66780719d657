import ChirpModels

/// Tweets.
protocol TweetStore: Sendable {
    /// Stores the tweet and appends `tweet.created` (data `encode(tweet)`) to the author's and
    /// every follower's stream; when the author already used the client id, `replay` answers
    /// with the stored tweet or throws.
    func putTweet(
        _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet,
        encode: @escaping @Sendable (Tweet) throws -> String
    ) async throws -> WriteOutcome<Tweet>
    /// Deletes the tweet after `permit(author id or nil when there is no such tweet)` returned.
    func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws
    func tweets(byKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]?
    /// The viewer's and the followed users' tweets, newest first, without those of users the
    /// viewer has blocked.
    func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]
}

/// A tweet to store.
struct NewTweet: Sendable {
    var author: Viewer
    var clientTweetId: String
    var text: String
    var createdAt: Timestamp
}
