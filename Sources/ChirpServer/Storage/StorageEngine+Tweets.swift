import ChirpModels

/// `TweetStore`, written once for both engines.
extension StorageEngine {
    func putTweet(
        _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet,
        encode: @escaping @Sendable (Tweet) throws -> String
    ) async throws -> WriteOutcome<Tweet> {
        try await writing { scope in
            try await scope.lockUsers([new.author.id])
            if let existing = try await Self.tweets(
                scope, where: "t.author_id = $1 AND t.client_tweet_id = $2 LIMIT 1", new.author.id, new.author.id,
                new.clientTweetId
            ).first {
                return WriteOutcome(value: try replay(existing.item), created: false)
            }
            guard
                let tweetId = try await scope.queryValue(
                    "INSERT INTO tweets (author_id, client_tweet_id, text, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
                    new.author.id, new.clientTweetId, new.text, new.createdAt, as: Int64.self)
            else { throw StorageError.inconsistent("the tweet insert returned no id") }
            guard let author = try await scope.user(id: new.author.id, viewer: nil),
                let ownView = try await scope.user(id: new.author.id, viewer: new.author.id)
            else { throw StorageError.inconsistent("author \(new.author.id) is missing") }
            let tweet = Tweet(
                id: String(tweetId), clientTweetId: new.clientTweetId, author: author, text: new.text,
                createdAt: new.createdAt)
            let json = try encode(tweet)
            let followers = try await scope.query(
                "SELECT follower_id FROM follows WHERE followee_id = $1", new.author.id
            )
            .map { try $0("follower_id", as: Int64.self) }
            let audience = [new.author.id] + followers
            try await scope.lockUsers(audience)
            let appended = try await scope.appendEvents(
                userIds: audience, type: EventType.tweetCreated, json: json, at: new.createdAt, stored: .copy)
            // As the author sees it: the viewer fields are about themselves.
            var own = tweet
            own.author = ownView
            return WriteOutcome(value: own, created: true, appended: appended)
        }
    }

    func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws {
        try await writing { scope in
            try permit(
                try await scope.queryValue(
                    "SELECT author_id FROM tweets WHERE id = $1\(scope.dialect.forUpdate)", id, as: Int64.self))
            try await scope.run("DELETE FROM tweets WHERE id = $1", id)
        }
    }

    func tweets(byKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]? {
        try await reading { scope in
            guard let author = try await scope.userId(key: key) else { return nil }
            return try await Self.tweets(
                scope, where: "t.author_id = $1 AND t.id < $2 ORDER BY t.id DESC LIMIT $3", viewer, author, cursor,
                limit)
        }
    }

    /// The home timeline: the viewer's tweets and those of whom they follow, but for authors
    /// the viewer has blocked.
    func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>] {
        try await reading { scope in
            try await Self.tweets(
                scope,
                where: """
                    (t.author_id = $1 OR t.author_id IN (SELECT followee_id FROM follows WHERE follower_id = $1))
                    AND \(BlockSQL.notBlocked("t.author_id", by: "$1"))
                    AND t.id < $2 ORDER BY t.id DESC LIMIT $3
                    """,
                viewer, viewer, cursor, limit)
        }
    }

    /// Tweets matching `condition` (over `t`, its parameters from `$1` on) with their authors as
    /// `viewer` (the last parameter) sees them.
    private static func tweets(
        _ scope: Scope, where condition: String, _ viewer: Int64, _ values: any SQLBindable...
    ) async throws -> [Listed<Tweet>] {
        let viewerParameter = "$\(values.count + 1)"
        return try await scope.query(
            """
            SELECT t.id, t.client_tweet_id, t.text, t.created_at, \(UserColumns.select("u", viewer: viewerParameter))
            FROM tweets t JOIN users u ON u.id = t.author_id WHERE \(condition)
            """,
            (values + [viewer]).map(\.sqlValue)
        ).map { row in
            let id: Int64 = try row("id")
            let tweet = Tweet(
                id: String(id), clientTweetId: try row("client_tweet_id"), author: try UserColumns.user(from: row, "u"),
                text: try row("text"), createdAt: try row("created_at"))
            return Listed(cursor: id, item: tweet)
        }
    }
}
