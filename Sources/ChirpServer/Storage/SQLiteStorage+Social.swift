import ChirpModels
import GRDB

extension SQLiteStorage {
    func follow(
        followerId: Int64, followeeKey: String, at: Timestamp, permit: @escaping @Sendable (BlocksBetween) throws -> Void,
        notice: @escaping @Sendable (User) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { db in
            guard let target = try Self.userId(db, key: followeeKey) else { return nil }
            guard let blocks = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(BlockSQL.between("?1", "?2"))"),
                arguments: [followerId, target])
            else { throw StorageError.inconsistent("the block check returned no row") }
            try permit(BlocksBetween(followerBlockedFollowee: blocks[0], followeeBlockedFollower: blocks[1]))
            try db.cachedStatement(sql: """
                INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT (follower_id, followee_id) DO NOTHING
                """).execute(arguments: [followerId, target, at.millisecondsSince1970])
            guard db.changesCount > 0 else {
                return WriteOutcome(value: (), created: false)
            }
            try Self.run(db, FollowSQL.count, [followerId, target, 1])
            guard let follower = try Self.fetchUser(db, id: followerId, viewer: target) else {
                throw StorageError.inconsistent("follower \(followerId) is missing")
            }
            let appended = try Self.appendEvent(db, userId: target, type: EventType.followCreated, json: notice(follower), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func unfollow(followerId: Int64, followeeKey: String) async throws -> Bool? {
        try await write { db in
            guard let target = try Self.userId(db, key: followeeKey) else { return nil }
            try db.cachedStatement(sql: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?")
                .execute(arguments: [followerId, target])
            guard db.changesCount > 0 else { return false }
            try Self.run(db, FollowSQL.count, [followerId, target, -1])
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
        try await read { db in
            guard let subject = try Self.userId(db, key: key) else { return nil }
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT f.id, \(Self.userColumns("u")) FROM follows f
                    JOIN users u ON u.id = f.\(listed)
                    WHERE f.\(anchor) = :subject AND f.id < :cursor
                    ORDER BY f.id DESC LIMIT :limit
                    """),
                arguments: ["subject": subject, "cursor": cursor, "limit": limit, "viewer": viewer])
            return rows.map { Listed(cursor: $0[0], item: Self.user(from: $0, at: 1)) }
        }
    }
}
