import ChirpModels

/// The social graph.
protocol SocialStore: Sendable {
    /// Adds the follow, once `permit(the blocks between the two)` returned, and appends
    /// `follow.created` to the followee's stream, its data `notice(follower as the followee
    /// sees them)`; nil when there is no such followee.
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp,
        permit: @escaping @Sendable (BlocksBetween) throws -> Void,
        notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>?
    /// Removes the follow; nil when there is no such followee, false when there was no follow.
    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool?
    /// Newest follow first, at most `limit` rows (cursor: the follow's id); nil: no such user.
    func followers(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
    func following(ofKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]?
}

/// The blocks between a follower and a followee, read in the follow's transaction.
struct BlocksBetween: Sendable, Equatable {
    /// The follower has blocked the followee.
    var followerBlockedFollowee: Bool
    /// The followee has blocked the follower.
    var followeeBlockedFollower: Bool
}
