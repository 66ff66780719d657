import ChirpModels
import Foundation
import GRDB
import HummingbirdBcrypt

/// Fills a new database with accounts that are ready to connect, straight through SQL (no bcrypt
/// sign-up per account), for `chirp bench connections`: `users` accounts `conn0`, `conn1`, …
/// each with one live session, and every account following the first `senders` accounts, so
/// that each sender may message anyone. SQLite here; PostgreSQL in `+Postgres`.
package enum ConnectionBenchSeeder {
    /// A seeded account and the token of its session.
    package struct Account: Sendable, Codable {
        package let name: String
        package let token: String

        package init(name: String, token: String) {
            self.name = name
            self.token = token
        }
    }

    /// What either database is seeded with: the accounts, one cheap password hash (nobody logs
    /// in with it) and the times.
    struct Plan {
        let accounts: [Account]
        let users: Int
        let senderCount: Int
        let hash = Bcrypt.hash("bench-password", cost: 4)
        let now = Timestamp.now().millisecondsSince1970
        var expiry: Int64 { now + 86_400_000 }

        init(users: Int, senders: Int) {
            self.users = users
            accounts = (0..<users).map { Account(name: "conn\($0)", token: SessionTokens.generate()) }
            senderCount = min(senders, users)
        }

        /// Everyone follows each sender (senders do not follow themselves).
        func followers(of index: Int) -> Int { index < senderCount ? users - 1 : 0 }
        func following(of index: Int) -> Int { index < senderCount ? senderCount - 1 : senderCount }
    }

    /// Seeds `dataDirectory` (created if needed; must hold no database yet) and returns the
    /// accounts in order (`conn0` first).
    package static func seed(dataDirectory: URL, users: Int, senders: Int) async throws -> [Account] {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let storage = try SQLiteStorage(url: dataDirectory.appendingPathComponent("chirp.sqlite"))
        let plan = Plan(users: users, senders: senders)
        try await storage.write { db in
            let user = try db.makeStatement(
                sql: """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at, followers_count, following_count)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            let session = try db.makeStatement(
                sql: """
                    INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for (index, account) in plan.accounts.enumerated() {
                try user.execute(arguments: [
                    account.name, account.name, account.name, plan.hash, plan.now, plan.followers(of: index),
                    plan.following(of: index),
                ])
                try session.execute(arguments: [
                    Data(SessionTokens.hash(account.token)), db.lastInsertedRowID, plan.now, plan.expiry,
                    SessionTokens.publicId(), plan.now,
                ])
            }
            let follow = try db.makeStatement(
                sql: "INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)")
            for follower in 1...Int64(users) {
                for followee in 1...Int64(plan.senderCount) where followee != follower {
                    try follow.execute(arguments: [follower, followee, plan.now])
                }
            }
        }
        return plan.accounts
    }
}
