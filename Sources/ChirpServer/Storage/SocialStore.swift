import ChirpModels

/// The social graph.
protocol SocialStore: Sendable {
    /// Adds the follow and appends `follow.created` to the followee's stream, its data
    /// `notice(follower as the followee sees them)`; nil when there is no such followee.
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp, notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>?
    /// Removes the follow; nil when there is no such followee, false when there was no follow.
    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool?
    /// Newest follow first, at most `limit` rows (cursor: the follow's id); nil: no such user.
    func followers(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
    func following(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
}
