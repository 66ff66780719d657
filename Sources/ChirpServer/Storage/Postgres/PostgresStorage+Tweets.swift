import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func putTweet(
        _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet, encode: @escaping @Sendable (Tweet) throws -> String
    ) async throws -> WriteOutcome<Tweet> {
        try await write { scope in
            try await scope.lockUsers([new.author.id])
            if let existing = try await Self.fetchTweets(
                scope, viewer: new.author.id, where: "t.author_id = $1 AND t.client_tweet_id = $2 LIMIT 1",
                Self.binds(new.author.id, new.clientTweetId)).first {
                return WriteOutcome(value: try replay(existing.item), created: false)
            }
            guard let tweetId = try await scope.value("""
                INSERT INTO tweets (author_id, client_tweet_id, text, created_at)
                VALUES (\(new.author.id), \(new.clientTweetId), \(new.text), \(new.createdAt.millisecondsSince1970))
                RETURNING id
                """, as: Int64.self)
            else { throw StorageError.inconsistent("the tweet insert returned no id") }
            guard let author = try await Self.fetchUser(scope, id: new.author.id, viewer: nil) else {
                throw StorageError.inconsistent("author \(new.author.id) is missing")
            }
            let tweet = Tweet(id: String(tweetId), clientTweetId: new.clientTweetId, author: author, text: new.text, createdAt: new.createdAt)
            let json = try encode(tweet)
            let followers = try await scope.rows("SELECT follower_id FROM follows WHERE followee_id = \(new.author.id)")
                .map { try $0.value(0, as: Int64.self) }
            let audience = [new.author.id] + followers
            // Every stream written below is locked first, in id order (see `lockUsers`).
            try await scope.lockUsers(audience)
            for userId in audience.sorted() {
                try await scope.appendEvent(userId: userId, type: EventType.tweetCreated, json: json, at: new.createdAt)
            }
            // As the author sees it: the viewer fields are about themselves.
            var own = tweet
            own.author = try await Self.fetchUser(scope, id: new.author.id, viewer: new.author.id) ?? author
            return WriteOutcome(value: own, created: true, appended: scope.appended)
        }
    }

    func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws {
        try await write { scope in
            try permit(try await scope.value("SELECT author_id FROM tweets WHERE id = \(id) FOR UPDATE", as: Int64.self))
            try await scope.execute("DELETE FROM tweets WHERE id = \(id)")
        }
    }

    func tweets(byKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]? {
        try await read { scope in
            guard let author = try await Self.userId(scope, key: key) else { return nil }
            return try await Self.fetchTweets(
                scope, viewer: viewer, where: "t.author_id = $1 AND t.id < $2 ORDER BY t.id DESC LIMIT $3",
                Self.binds(author, cursor, limit))
        }
    }

    func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>] {
        try await read { scope in
            try await scope.rows(PreparedQuery(TimelinePage.self, Self.binds(viewer, cursor, limit))).map(Self.tweet(from:))
        }
    }

    /// Tweets with their authors as `viewer` sees them.
    private static func fetchTweets(
        _ scope: PostgresScope, viewer: Int64, where condition: String, _ binds: PostgresBindings
    ) async throws -> [Listed<Tweet>] {
        try await scope.rows(PostgresQuery(
            unsafeSQL: "\(tweetColumns(viewerSQL: String(viewer))) WHERE \(condition)", binds: binds)
        ).map(tweet(from:))
    }

    /// The start of a tweets query, up to its `WHERE`: the columns `tweet(from:)` reads, the
    /// author's viewer flags for the viewer given as SQL.
    static func tweetColumns(viewerSQL viewer: String) -> String {
        """
        SELECT t.id, t.client_tweet_id, t.text, t.created_at, \(userColumns("u", viewerSQL: viewer))
        FROM tweets t JOIN users u ON u.id = t.author_id
        """
    }

    /// Decodes a row of `tweetColumns`.
    static func tweet(from row: PostgresRandomAccessRow) throws -> Listed<Tweet> {
        let id: Int64 = try row.value(0)
        let tweet = Tweet(
            id: String(id), clientTweetId: try row.value(1), author: try user(from: row, at: 4), text: try row.value(2),
            createdAt: Timestamp(millisecondsSince1970: try row.value(3)))
        return Listed(cursor: id, item: tweet)
    }
}

/// The home timeline of viewer `$1`: their tweets and those of whom they follow, minus blocked
/// authors, ids below `$2`, at most `$3`.
private enum TimelinePage: PreparedSQL {
    static let sql = """
        \(PostgresStorage.tweetColumns(viewerSQL: "$1"))
        WHERE (t.author_id = $1 OR t.author_id IN (SELECT followee_id FROM follows WHERE follower_id = $1))
            AND \(BlockSQL.notBlocked("t.author_id", by: "$1"))
            AND t.id < $2 ORDER BY t.id DESC LIMIT $3
        """
}
