import ChirpModels

/// The social graph: follow (which tells the followee), unfollow, and the two lists.
struct SocialService: Sendable {
    let store: any SocialStore
    let hub: EventHub
    let now: @Sendable () -> Timestamp
    /// The follow limit (`limits.follows`, per follower).
    var limits = RateLimits.off

    func follow(_ viewer: Viewer, username: String) async throws {
        let key = try UsernameLookup.key(username)
        // Usernames are unique by key, so the same key is the same account.
        if key == Validation.usernameKey(viewer.username) {
            throw APIError(.unprocessableContent, APIErrorCode.cannotFollowSelf, "You cannot follow yourself.")
        }
        let notice: @Sendable (User) throws -> String = { follower in
            try APIJSON.encode(FollowNotice(follower: follower))
        }
        let permit: @Sendable (BlocksBetween) throws -> Void = { blocks in
            if let refusal = Self.refusal(blocks, followee: username) { throw refusal }
        }
        let limitKey = String(viewer.id)
        try await limits.take(limits.follows, key: limitKey, refusal: "You have followed too many accounts")
        let found: WriteOutcome<Void>?
        do {
            found = try await store.follow(
                followerId: viewer.id, followeeKey: key, at: now(), permit: permit, notice: notice)
        } catch {
            limits.giveBack(limits.follows, key: limitKey)
            throw error
        }
        guard let outcome = found else {
            limits.giveBack(limits.follows, key: limitKey)
            throw APIError.userNotFound(username)
        }
        if !outcome.created { limits.giveBack(limits.follows, key: limitKey) }
        hub.publish(outcome.appended)
    }

    /// The follow rule: nobody follows across a block, in either direction (403 `blocked`).
    static func refusal(_ blocks: BlocksBetween, followee: String) -> APIError? {
        if blocks.followerBlockedFollowee { return APIError.youBlocked(followee) }
        if blocks.followeeBlockedFollower { return APIError.blockedBy(followee) }
        return nil
    }

    /// Unfollowing someone not followed is not an error.
    func unfollow(_ viewer: Viewer, username: String) async throws {
        guard try await store.unfollow(followerId: viewer.id, followeeKey: try UsernameLookup.key(username)) != nil
        else {
            throw APIError.userNotFound(username)
        }
    }

    func followers(of username: String, viewer: Viewer, page: PageRequest) async throws -> Page<User> {
        guard
            let rows = try await store.followers(
                ofKey: try UsernameLookup.key(username), viewer: viewer.id, before: page.before, limit: page.fetch)
        else { throw APIError.userNotFound(username) }
        return PageBuilder.newestFirst(rows, limit: page.limit)
    }

    func following(of username: String, viewer: Viewer, page: PageRequest) async throws -> Page<User> {
        guard
            let rows = try await store.following(
                ofKey: try UsernameLookup.key(username), viewer: viewer.id, before: page.before, limit: page.fetch)
        else { throw APIError.userNotFound(username) }
        return PageBuilder.newestFirst(rows, limit: page.limit)
    }
}
