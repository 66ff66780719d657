import ChirpModels
import Foundation
import GRDB
import HummingbirdBcrypt

/// Fills a new SQLite data directory with accounts that are ready to connect, straight through
/// SQL (no bcrypt sign-up per account), for `chirp bench connections`: `users` accounts `conn0`,
/// `conn1`, … each with one live session, and every account following the first `senders`
/// accounts, so that each sender may message anyone.
public enum ConnectionBenchSeeder {
    /// A seeded account and the token of its session.
    public struct Account: Sendable {
        public let name: String
        public let token: String
    }

    /// Seeds `dataDirectory` (created if needed; must hold no database yet) and returns the
    /// accounts in order (`conn0` first).
    public static func seed(dataDirectory: URL, users: Int, senders: Int) async throws -> [Account] {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let storage = try SQLiteStorage(url: dataDirectory.appendingPathComponent("chirp.sqlite"))
        // Nobody logs in with the password: one cheap hash serves every account.
        let hash = Bcrypt.hash("bench-password", cost: 4)
        let now = Timestamp.now().millisecondsSince1970
        let expiry = now + 86_400_000
        let accounts = (0..<users).map { Account(name: "conn\($0)", token: SessionTokens.generate()) }
        let senderCount = min(senders, users)
        try await storage.write { db in
            let user = try db.makeStatement(sql: """
                INSERT INTO users (username, username_key, display_name, password_hash, created_at, followers_count, following_count)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            let session = try db.makeStatement(sql: """
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for (index, account) in accounts.enumerated() {
                let isSender = index < senderCount
                // Everyone follows each sender (senders do not follow themselves).
                let followers = isSender ? users - 1 : 0
                let following = isSender ? senderCount - 1 : senderCount
                try user.execute(arguments: [account.name, account.name, account.name, hash, now, followers, following])
                try session.execute(arguments: [
                    Data(SessionTokens.hash(account.token)), db.lastInsertedRowID, now, expiry, SessionTokens.publicId(), now,
                ])
            }
            let follow = try db.makeStatement(sql: "INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)")
            for follower in 1...Int64(users) {
                for followee in 1...Int64(senderCount) where followee != follower {
                    try follow.execute(arguments: [follower, followee, now])
                }
            }
        }
        return accounts
    }
}
