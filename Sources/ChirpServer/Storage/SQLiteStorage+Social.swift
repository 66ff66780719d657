import ChirpModels
import GRDB

extension SQLiteStorage {
    func follow(viewer: Viewer, username: String, at: Timestamp) async throws -> WriteOutcome<Void> {
        try await write { db in
            let target = try Self.userId(db, username: username)
            if target == viewer.id {
                throw APIError(.unprocessableContent, APIErrorCode.cannotFollowSelf, "You cannot follow yourself.")
            }
            try db.cachedStatement(sql: """
                INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT (follower_id, followee_id) DO NOTHING
                """).execute(arguments: [viewer.id, target, at.millisecondsSince1970])
            guard db.changesCount > 0 else {
                return WriteOutcome(value: (), created: false)
            }
            try db.cachedStatement(sql: "UPDATE users SET following_count = following_count + 1 WHERE id = ?")
                .execute(arguments: [viewer.id])
            try db.cachedStatement(sql: "UPDATE users SET followers_count = followers_count + 1 WHERE id = ?")
                .execute(arguments: [target])
            let follower = try Self.fetchUser(db, id: viewer.id, viewer: target)!
            let appended = try Self.appendEvent(
                db, userId: target, type: EventType.followCreated,
                json: StoredEventJSON.encode(FollowNotice(follower: follower)), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func unfollow(viewer: Viewer, username: String) async throws {
        try await write { db in
            let target = try Self.userId(db, username: username)
            try db.cachedStatement(sql: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?")
                .execute(arguments: [viewer.id, target])
            guard db.changesCount > 0 else { return }
            try db.cachedStatement(sql: "UPDATE users SET following_count = following_count - 1 WHERE id = ?")
                .execute(arguments: [viewer.id])
            try db.cachedStatement(sql: "UPDATE users SET followers_count = followers_count - 1 WHERE id = ?")
                .execute(arguments: [target])
        }
    }

    func followers(of username: String, viewer: Int64, page: PageRequest) async throws -> Page<User> {
        try await followList(username: username, viewer: viewer, page: page, anchor: "followee_id", listed: "follower_id")
    }

    func following(of username: String, viewer: Int64, page: PageRequest) async throws -> Page<User> {
        try await followList(username: username, viewer: viewer, page: page, anchor: "follower_id", listed: "followee_id")
    }

    /// Users on the other end of `username`'s follows, newest follow first; the cursor is the
    /// follow's id.
    private func followList(
        username: String, viewer: Int64, page: PageRequest, anchor: String, listed: String
    ) async throws -> Page<User> {
        try await read { db in
            let subject = try Self.userId(db, username: username)
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT f.id, \(Self.userColumns("u")) FROM follows f
                    JOIN users u ON u.id = f.\(listed)
                    WHERE f.\(anchor) = :subject AND f.id < :cursor
                    ORDER BY f.id DESC LIMIT :limit
                    """),
                arguments: ["subject": subject, "cursor": page.cursor ?? Int64.max, "limit": page.limit + 1, "viewer": viewer])
            let items = rows.map { (cursor: $0[0] as Int64, user: Self.user(from: $0, at: 1)) }
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.cursor, item: \.user)
        }
    }
}
