import ChirpModels
import GRDB

extension SQLiteStorage {
    func putTweet(
        _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet, encode: @escaping @Sendable (Tweet) throws -> String
    ) async throws -> WriteOutcome<Tweet> {
        try await write { db in
            if let existing = try Self.fetchTweets(
                db, where: "t.author_id = :author AND t.client_tweet_id = :client LIMIT 1",
                ["author": new.author.id, "client": new.clientTweetId, "viewer": new.author.id]).first {
                return WriteOutcome(value: try replay(existing.item), created: false)
            }
            try db.cachedStatement(sql: "INSERT INTO tweets (author_id, client_tweet_id, text, created_at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [new.author.id, new.clientTweetId, new.text, new.createdAt.millisecondsSince1970])
            let tweetId = db.lastInsertedRowID
            guard let author = try Self.fetchUser(db, id: new.author.id, viewer: nil),
                  let ownView = try Self.fetchUser(db, id: new.author.id, viewer: new.author.id)
            else { throw StorageError.inconsistent("author \(new.author.id) is missing") }
            let tweet = Tweet(id: String(tweetId), clientTweetId: new.clientTweetId, author: author, text: new.text, createdAt: new.createdAt)
            let json = try encode(tweet)
            let followers = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT follower_id FROM follows WHERE followee_id = ?"), arguments: [new.author.id])
            let audience = [new.author.id] + followers
            let appended = try Self.appendEvents(db, userIds: audience, type: EventType.tweetCreated, json: json, at: new.createdAt)
            // As the author sees it: the viewer fields are about themselves.
            var own = tweet
            own.author = ownView
            return WriteOutcome(value: own, created: true, appended: appended)
        }
    }

    func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws {
        try await write { db in
            let author = try Int64.fetchOne(db.cachedStatement(sql: "SELECT author_id FROM tweets WHERE id = ?"), arguments: [id])
            try permit(author)
            try db.cachedStatement(sql: "DELETE FROM tweets WHERE id = ?").execute(arguments: [id])
        }
    }

    func tweets(byKey key: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]? {
        try await read { db in
            guard let author = try Self.userId(db, key: key) else { return nil }
            return try Self.fetchTweets(
                db, where: "t.author_id = :author AND t.id < :cursor ORDER BY t.id DESC LIMIT :limit",
                ["author": author, "cursor": cursor, "limit": limit, "viewer": viewer])
        }
    }

    func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>] {
        try await read { db in
            try Self.fetchTweets(
                db, where: """
                    (t.author_id = :viewer OR t.author_id IN (SELECT followee_id FROM follows WHERE follower_id = :viewer))
                    AND \(BlockSQL.notBlocked("t.author_id", by: ":viewer"))
                    AND t.id < :cursor ORDER BY t.id DESC LIMIT :limit
                    """,
                ["cursor": cursor, "limit": limit, "viewer": viewer])
        }
    }

    /// Tweets with their authors as seen by the named argument `:viewer`.
    private static func fetchTweets(
        _ db: Database, where condition: String, _ arguments: StatementArguments
    ) throws -> [Listed<Tweet>] {
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
            return Listed(cursor: id, item: tweet)
        }
    }
}
