import ChirpModels

/// A user's columns as the statements written once select them, each named after its table's
/// alias (`u.id AS u_id`, …), and read back by those names.
enum UserColumns {
    /// The columns `user(from:_:)` reads for the `users` alias `alias`, with the viewer flags
    /// (whether the user follows the viewer and the viewer follows them) computed for the
    /// viewer's id as SQL (a parameter such as `$1`).
    static func select(_ alias: String, viewer: String) -> String {
        """
        \(alias).id AS \(alias)_id, \(alias).username AS \(alias)_username, \(alias).display_name AS \(alias)_display_name, \
        \(alias).created_at AS \(alias)_created_at, \(alias).followers_count AS \(alias)_followers, \
        \(alias).following_count AS \(alias)_following, \
        EXISTS (SELECT 1 FROM follows WHERE follower_id = \(alias).id AND followee_id = \(viewer)) AS \(alias)_follows_viewer, \
        EXISTS (SELECT 1 FROM follows WHERE follower_id = \(viewer) AND followee_id = \(alias).id) AS \(alias)_followed_by_viewer
        """
    }

    /// The user of `alias`'s columns; without the viewer flags when `withViewerFields` is false.
    static func user(from row: some StorageRow, _ alias: String, withViewerFields: Bool = true) throws -> User {
        User(
            id: String(try row("\(alias)_id", as: Int64.self)),
            username: try row("\(alias)_username"),
            displayName: try row("\(alias)_display_name"),
            createdAt: try row("\(alias)_created_at"),
            followersCount: try row("\(alias)_followers"),
            followingCount: try row("\(alias)_following"),
            followsYou: withViewerFields ? try row("\(alias)_follows_viewer", as: Bool.self) : nil,
            followedByYou: withViewerFields ? try row("\(alias)_followed_by_viewer", as: Bool.self) : nil)
    }
}

extension StorageScope {
    /// One user by id with the viewer flags for `viewer` (nil: without them).
    func user(id: Int64, viewer: Int64?) async throws -> User? {
        try await queryRow(
            "SELECT \(UserColumns.select("u", viewer: "$2")) FROM users u WHERE u.id = $1", id, viewer ?? 0
        )
        .map { try UserColumns.user(from: $0, "u", withViewerFields: viewer != nil) }
    }
}
