import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func putTweet(_ new: NewTweet) async throws -> WriteOutcome<Tweet> {
        try await write { scope in
            try await scope.lockUsers([new.author.id])
            if let existing = try await Self.fetchTweets(
                scope, viewer: new.author.id, where: "t.author_id = $1 AND t.client_tweet_id = $2 LIMIT 1",
                Self.binds(new.author.id, new.clientTweetId)).first {
                guard existing.tweet.text == new.text else {
                    throw APIError.clientTweetIdReused
                }
                return WriteOutcome(value: existing.tweet, created: false)
            }
            guard let tweetId = try await scope.value("""
                INSERT INTO tweets (author_id, client_tweet_id, text, created_at)
                VALUES (\(new.author.id), \(new.clientTweetId), \(new.text), \(new.createdAt.millisecondsSince1970))
                RETURNING id
                """, as: Int64.self)
            else { throw APIError.userNotFound(new.author.username) }
            let author = try await Self.fetchUser(scope, id: new.author.id, viewer: nil)!
            let tweet = Tweet(id: String(tweetId), clientTweetId: new.clientTweetId, author: author, text: new.text, createdAt: new.createdAt)
            let json = try StoredEventJSON.encode(tweet)
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
            own.author = try await Self.fetchUser(scope, id: new.author.id, viewer: new.author.id)!
            return WriteOutcome(value: own, created: true, appended: scope.appended)
        }
    }

    func deleteTweet(viewer: Viewer, id: Int64) async throws {
        try await write { scope in
            guard let author = try await scope.value("SELECT author_id FROM tweets WHERE id = \(id)", as: Int64.self) else {
                throw APIError(.notFound, APIErrorCode.tweetNotFound, "There is no tweet \(id).")
            }
            guard author == viewer.id else {
                throw APIError(.forbidden, APIErrorCode.forbidden, "You can only delete your own tweets.")
            }
            try await scope.execute("DELETE FROM tweets WHERE id = \(id)")
        }
    }

    func tweets(by username: String, viewer: Int64, page: PageRequest) async throws -> Page<Tweet> {
        try await read { scope in
            let author = try await Self.userId(scope, username: username)
            let items = try await Self.fetchTweets(
                scope, viewer: viewer, where: "t.author_id = $1 AND t.id < $2 ORDER BY t.id DESC LIMIT $3",
                Self.binds(author, page.cursor ?? Int64.max, page.limit + 1))
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.id, item: \.tweet)
        }
    }

    func timeline(viewer: Int64, page: PageRequest) async throws -> Page<Tweet> {
        try await read { scope in
            let items = try await Self.fetchTweets(
                scope, viewer: viewer, where: """
                    (t.author_id = $1 OR t.author_id IN (SELECT followee_id FROM follows WHERE follower_id = $1))
                    AND t.id < $2 ORDER BY t.id DESC LIMIT $3
                    """,
                Self.binds(viewer, page.cursor ?? Int64.max, page.limit + 1))
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.id, item: \.tweet)
        }
    }

    /// Tweets with their authors as `viewer` sees them.
    private static func fetchTweets(
        _ scope: PostgresScope, viewer: Int64, where condition: String, _ binds: PostgresBindings
    ) async throws -> [(id: Int64, tweet: Tweet)] {
        try await scope.rows(PostgresQuery(
            unsafeSQL: """
                SELECT t.id, t.client_tweet_id, t.text, t.created_at, \(userColumns("u", viewer: viewer))
                FROM tweets t JOIN users u ON u.id = t.author_id WHERE \(condition)
                """,
            binds: binds)
        ).map { row in
            let id: Int64 = try row.value(0)
            let tweet = Tweet(
                id: String(id), clientTweetId: try row.value(1), author: try user(from: row, at: 4), text: try row.value(2),
                createdAt: Timestamp(millisecondsSince1970: try row.value(3)))
            return (id, tweet)
        }
    }
}
