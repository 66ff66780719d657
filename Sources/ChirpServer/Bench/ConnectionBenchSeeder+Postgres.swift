import ChirpModels
import Logging
import PostgresNIO

extension ConnectionBenchSeeder {
    /// Seeds the new, empty PostgreSQL database of `settings` (migrating it first) with what
    /// `seed(dataDirectory:…)` gives SQLite, in three statements of arrays, and returns the
    /// accounts in order (`conn0` first).
    package static func seed(postgres settings: PostgresSettings, users: Int, senders: Int) async throws -> [Account] {
        let plan = Plan(users: users, senders: senders)
        let names = plan.accounts.map(\.name)
        let followers = plan.accounts.indices.map { Int64(plan.followers(of: $0)) }
        let following = plan.accounts.indices.map { Int64(plan.following(of: $0)) }
        let hashes = plan.accounts.map { ByteBuffer(bytes: SessionTokens.hash($0.token)) }
        let publicIds = plan.accounts.map { _ in SessionTokens.publicId() }
        let senderNames = Array(names.prefix(plan.senderCount))
        var logger = Logger(label: "chirp.bench.seed")
        logger.logLevel = .warning
        try await PostgresStorage.withOpened(settings: settings, logger: logger) { storage in
            try await storage.write { scope in
                try await scope.execute(
                    """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at, followers_count, following_count)
                    SELECT name, name, name, \(plan.hash), \(plan.now), followers, following
                    FROM unnest(\(names)::text[], \(followers)::int8[], \(following)::int8[]) WITH ORDINALITY AS t(name, followers, following, ord)
                    ORDER BY ord
                    """)
                try await scope.execute(
                    """
                    INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at)
                    SELECT t.hash, u.id, \(plan.now), \(plan.expiry), t.public_id, \(plan.now)
                    FROM unnest(\(hashes)::bytea[], \(names)::text[], \(publicIds)::text[]) AS t(hash, name, public_id)
                    JOIN users u ON u.username_key = t.name
                    """)
                // The database is new: its users are the seeded ones.
                try await scope.execute(
                    """
                    INSERT INTO follows (follower_id, followee_id, created_at)
                    SELECT f.id, s.id, \(plan.now) FROM users s JOIN users f ON f.id <> s.id
                    WHERE s.username_key = ANY(\(senderNames)::text[])
                    ORDER BY f.id, s.id
                    """)
            }
        }
        return plan.accounts
    }
}
