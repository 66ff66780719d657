import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func follow(viewer: Viewer, username: String, at: Timestamp) async throws -> WriteOutcome<Void> {
        try await write { scope in
            let target = try await Self.userId(scope, username: username)
            if target == viewer.id {
                throw APIError(.unprocessableContent, APIErrorCode.cannotFollowSelf, "You cannot follow yourself.")
            }
            try await scope.lockUsers([viewer.id, target])
            let inserted = try await scope.execute("""
                INSERT INTO follows (follower_id, followee_id, created_at) VALUES (\(viewer.id), \(target), \(at.millisecondsSince1970))
                ON CONFLICT (follower_id, followee_id) DO NOTHING RETURNING 1
                """)
            guard inserted > 0 else { return WriteOutcome(value: (), created: false) }
            try await scope.execute("UPDATE users SET following_count = following_count + 1 WHERE id = \(viewer.id)")
            try await scope.execute("UPDATE users SET followers_count = followers_count + 1 WHERE id = \(target)")
            let follower = try await Self.fetchUser(scope, id: viewer.id, viewer: target)!
            try await scope.appendEvent(
                userId: target, type: EventType.followCreated, json: StoredEventJSON.encode(FollowNotice(follower: follower)), at: at)
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }

    func unfollow(viewer: Viewer, username: String) async throws {
        try await write { scope in
            let target = try await Self.userId(scope, username: username)
            try await scope.lockUsers([viewer.id, target])
            let deleted = try await scope.execute(
                "DELETE FROM follows WHERE follower_id = \(viewer.id) AND followee_id = \(target) RETURNING 1")
            guard deleted > 0 else { return }
            try await scope.execute("UPDATE users SET following_count = following_count - 1 WHERE id = \(viewer.id)")
            try await scope.execute("UPDATE users SET followers_count = followers_count - 1 WHERE id = \(target)")
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
        try await read { scope in
            let subject = try await Self.userId(scope, username: username)
            let rows = try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT f.id, \(Self.userColumns("u", viewer: viewer)) FROM follows f
                    JOIN users u ON u.id = f.\(listed)
                    WHERE f.\(anchor) = $1 AND f.id < $2
                    ORDER BY f.id DESC LIMIT $3
                    """,
                binds: Self.binds(subject, page.cursor ?? Int64.max, page.limit + 1)))
            let items = try rows.map { (cursor: try $0.value(0, as: Int64.self), user: try Self.user(from: $0, at: 1)) }
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.cursor, item: \.user)
        }
    }
}
