import ChirpModels
import GRDB

extension SQLiteStorage {
    func putTweet(_ new: NewTweet) async throws -> WriteOutcome<Tweet> {
        try await write { db in
            if let existing = try Self.fetchTweets(
                db, where: "t.author_id = :author AND t.client_tweet_id = :client LIMIT 1",
                ["author": new.author.id, "client": new.clientTweetId, "viewer": new.author.id]).first {
                guard existing.tweet.text == new.text else {
                    throw APIError.clientTweetIdReused
                }
                return WriteOutcome(value: existing.tweet, created: false)
            }
            try db.cachedStatement(sql: "INSERT INTO tweets (author_id, client_tweet_id, text, created_at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [new.author.id, new.clientTweetId, new.text, new.createdAt.millisecondsSince1970])
            let tweetId = db.lastInsertedRowID
            let author = try Self.fetchUser(db, id: new.author.id, viewer: nil)!
            let tweet = Tweet(id: String(tweetId), clientTweetId: new.clientTweetId, author: author, text: new.text, createdAt: new.createdAt)
            let json = try StoredEventJSON.encode(tweet)
            let followers = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT follower_id FROM follows WHERE followee_id = ?"), arguments: [new.author.id])
            let audience = [new.author.id] + followers
            let appended = try Self.appendEvents(db, userIds: audience, type: EventType.tweetCreated, json: json, at: new.createdAt)
            // As the author sees it: the viewer fields are about themselves.
            var own = tweet
            own.author = try Self.fetchUser(db, id: new.author.id, viewer: new.author.id)!
            return WriteOutcome(value: own, created: true, appended: appended)
        }
    }

    func deleteTweet(viewer: Viewer, id: Int64) async throws {
        try await write { db in
            guard let author = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT author_id FROM tweets WHERE id = ?"), arguments: [id])
            else {
                throw APIError(.notFound, APIErrorCode.tweetNotFound, "There is no tweet \(id).")
            }
            guard author == viewer.id else {
                throw APIError(.forbidden, APIErrorCode.forbidden, "You can only delete your own tweets.")
            }
            try db.cachedStatement(sql: "DELETE FROM tweets WHERE id = ?").execute(arguments: [id])
        }
    }

    func tweets(by username: String, viewer: Int64, page: PageRequest) async throws -> Page<Tweet> {
        try await read { db in
            let author = try Self.userId(db, username: username)
            let items = try Self.fetchTweets(
                db, where: "t.author_id = :author AND t.id < :cursor ORDER BY t.id DESC LIMIT :limit",
                ["author": author, "cursor": page.cursor ?? Int64.max, "limit": page.limit + 1, "viewer": viewer])
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.id, item: \.tweet)
        }
    }

    func timeline(viewer: Int64, page: PageRequest) async throws -> Page<Tweet> {
        try await read { db in
            let items = try Self.fetchTweets(
                db, where: """
                    (t.author_id = :viewer OR t.author_id IN (SELECT followee_id FROM follows WHERE follower_id = :viewer))
                    AND t.id < :cursor ORDER BY t.id DESC LIMIT :limit
                    """,
                ["cursor": page.cursor ?? Int64.max, "limit": page.limit + 1, "viewer": viewer])
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.id, item: \.tweet)
        }
    }

    /// Tweets with their authors as seen by the named argument `:viewer`.
    private static func fetchTweets(
        _ db: Database, where condition: String, _ arguments: StatementArguments
    ) throws -> [(id: Int64, tweet: Tweet)] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT t.id, t.client_tweet_id, t.text, t.created_at, \(userColumns("u"))
                FROM tweets t JOIN users u ON u.id = t.author_id WHERE \(condition)
                """),
            arguments: arguments
        ).map { row in
            let id: Int64 = row[0]
            let tweet = Tweet(
                id: String(id), clientTweetId: row[1], author: user(from: row, at: 4), text: row[2],
                createdAt: Timestamp(millisecondsSince1970: row[3]))
            return (id, tweet)
        }
    }
}
