import ChirpModels

/// `SocialStore`, written once for both engines.
extension StorageEngine {
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp,
        permit: @escaping @Sendable (BlocksBetween) throws -> Void,
        notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await writing { scope in
            guard let target = try await scope.userId(key: followeeKey) else { return nil }
            try await scope.lockUsers([followerId, target])
            guard
                let blocks = try await scope.queryRow(
                    "SELECT \(BlockSQL.blocked("$2", by: "$1")) AS blocks_followee, \(BlockSQL.blocked("$1", by: "$2")) AS blocked_by_followee",
                    followerId, target)
            else { throw StorageError.inconsistent("the block check returned no row") }
            try permit(
                BlocksBetween(
                    followerBlockedFollowee: try blocks("blocks_followee"),
                    followeeBlockedFollower: try blocks("blocked_by_followee")))
            let inserted = try await scope.run(
                "INSERT INTO follows (follower_id, followee_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (follower_id, followee_id) DO NOTHING",
                followerId, target, at)
            guard inserted > 0 else { return WriteOutcome(value: (), created: false) }
            try await scope.run(each: FollowSQL.count, followerId, target, 1)
            guard let follower = try await scope.user(id: followerId, viewer: target) else {
                throw StorageError.inconsistent("follower \(followerId) is missing")
            }
            let appended = try await scope.appendEvent(
                userId: target, type: EventType.followCreated, json: notice(follower), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool? {
        try await writing { scope in
            guard let target = try await scope.userId(key: followeeKey) else { return nil }
            try await scope.lockUsers([followerId, target])
            guard
                try await scope.run(
                    "DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2", followerId, target) > 0
            else {
                return false
            }
            try await scope.run(each: FollowSQL.count, followerId, target, -1)
            return true
        }
    }

    func followers(ofKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]? {
        try await followList(
            key: key, viewer: viewer, cursor: cursor, limit: limit, anchor: "followee_id", listed: "follower_id")
    }

    func following(ofKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]? {
        try await followList(
            key: key, viewer: viewer, cursor: cursor, limit: limit, anchor: "follower_id", listed: "followee_id")
    }

    /// Users on the other end of the follows of the user with `key`, newest follow first; the
    /// cursor is the follow's id.
    private func followList(
        key: String, viewer: Int64, cursor: Int64, limit: Int, anchor: String, listed: String
    ) async throws -> [Listed<User>]? {
        try await reading { scope in
            guard let subject = try await scope.userId(key: key) else { return nil }
            return try await scope.query(
                """
                SELECT f.id AS follow_id, \(UserColumns.select("u", viewer: "$4")) FROM follows f
                JOIN users u ON u.id = f.\(listed)
                WHERE f.\(anchor) = $1 AND f.id < $2
                ORDER BY f.id DESC LIMIT $3
                """,
                subject, cursor, limit, viewer
            ).map { Listed(cursor: try $0("follow_id"), item: try UserColumns.user(from: $0, "u")) }
        }
    }
}
