import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp, permit: @escaping @Sendable (BlocksBetween) throws -> Void,
        notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { scope in
            guard let target = try await Self.userId(scope, key: followeeKey) else { return nil }
            try await scope.lockUsers([followerId, target])
            guard let blocks = try await scope.row(
                PostgresQuery(unsafeSQL: "SELECT \(BlockSQL.between("$1", "$2"))", binds: Self.binds(followerId, target)))
            else { throw StorageError.inconsistent("the block check returned no row") }
            try permit(BlocksBetween(followerBlockedFollowee: try blocks.value(0), followeeBlockedFollower: try blocks.value(1)))
            let inserted = try await scope.execute("""
                INSERT INTO follows (follower_id, followee_id, created_at) VALUES (\(followerId), \(target), \(at.millisecondsSince1970))
                ON CONFLICT (follower_id, followee_id) DO NOTHING RETURNING 1
                """)
            guard inserted > 0 else { return WriteOutcome(value: (), created: false) }
            try await scope.execute(FollowSQL.count, Self.binds(followerId, target, 1))
            guard let follower = try await Self.fetchUser(scope, id: followerId, viewer: target) else {
                throw StorageError.inconsistent("follower \(followerId) is missing")
            }
            try await scope.appendEvent(userId: target, type: EventType.followCreated, json: notice(follower), at: at)
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }

    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool? {
        try await write { scope in
            guard let target = try await Self.userId(scope, key: followeeKey) else { return nil }
            try await scope.lockUsers([followerId, target])
            let deleted = try await scope.execute(
                "DELETE FROM follows WHERE follower_id = \(followerId) AND followee_id = \(target) RETURNING 1")
            guard deleted > 0 else { return false }
            try await scope.execute(FollowSQL.count, Self.binds(followerId, target, -1))
            return true
        }
    }

    func followers(ofKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]? {
        try await followList(key: key, viewer: viewer, cursor: cursor, limit: limit, anchor: "followee_id", listed: "follower_id")
    }

    func following(ofKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]? {
        try await followList(key: key, viewer: viewer, cursor: cursor, limit: limit, anchor: "follower_id", listed: "followee_id")
    }

    /// Users on the other end of the follows of the user with `key`, newest follow first; the
    /// cursor is the follow's id.
    private func followList(
        key: String, viewer: Int64, cursor: Int64, limit: Int, anchor: String, listed: String
    ) async throws -> [Listed<User>]? {
        try await read { scope in
            guard let subject = try await Self.userId(scope, key: key) else { return nil }
            let rows = try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT f.id, \(Self.userColumns("u", viewer: viewer)) FROM follows f
                    JOIN users u ON u.id = f.\(listed)
                    WHERE f.\(anchor) = $1 AND f.id < $2
                    ORDER BY f.id DESC LIMIT $3
                    """,
                binds: Self.binds(subject, cursor, limit)))
            return try rows.map { Listed(cursor: try $0.value(0, as: Int64.self), item: try Self.user(from: $0, at: 1)) }
        }
    }
}
