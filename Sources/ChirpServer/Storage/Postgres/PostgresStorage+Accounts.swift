import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User? {
        try await write { scope in
            // The unique key decides between two instances registering the same name at once.
            guard let userId = try await scope.value("""
                INSERT INTO users (username, username_key, display_name, password_hash, created_at)
                VALUES (\(account.username), \(Validation.usernameKey(account.username)), \(account.displayName),
                        \(account.passwordHash), \(account.createdAt.millisecondsSince1970))
                ON CONFLICT (username_key) DO NOTHING RETURNING id
                """, as: Int64.self)
            else { return nil }
            try await Self.insertSession(scope, session, userId: userId)
            return try await Self.fetchUser(scope, id: userId, viewer: nil)
        }
    }

    func credentials(usernameKey: String) async throws -> Credentials? {
        try await read { scope in
            try await scope.row("SELECT id, password_hash, suspended_at IS NOT NULL FROM users WHERE username_key = \(usernameKey)")
                .map { Credentials(userId: try $0.value(0), passwordHash: try $0.value(1), suspended: try $0.value(2)) }
        }
    }

    func createSession(_ session: NewSession) async throws -> User? {
        try await write { scope in
            // The row lock orders this against a suspension's update: a session is either
            // deleted by it or never made for a suspended account.
            guard try await scope.execute(
                "SELECT 1 FROM users WHERE id = \(session.userId) AND suspended_at IS NULL FOR SHARE") > 0,
                let user = try await Self.fetchUser(scope, id: session.userId, viewer: nil)
            else { return nil }
            try await Self.insertSession(scope, session, userId: session.userId)
            return user
        }
    }

    func session(tokenHash: [UInt8]) async throws -> SessionInfo? {
        try await sessionLookups.submit(tokenHash) { [self] hashes in await sessions(tokenHashes: hashes) }
    }

    /// The sessions behind `hashes`, in order, in one query (`sessionLookups`' batches).
    private func sessions(tokenHashes hashes: [[UInt8]]) async -> [Result<SessionInfo?, any Error>] {
        do {
            let found = try await read { scope in
                var found: [Int: SessionInfo] = [:]
                let rows = try await scope.rows(
                    PreparedQuery(SessionLookup.self, Self.binds(hashes.map { ByteBuffer(bytes: $0) })))
                for row in rows {
                    found[try row.value(0, as: Int.self) - 1] = SessionInfo(
                        userId: try row.value(1), username: try row.value(2),
                        expiresAt: Timestamp(millisecondsSince1970: try row.value(3)),
                        publicId: try row.value(4), lastUsedAt: Timestamp(millisecondsSince1970: try row.value(5)))
                }
                return found
            }
            return hashes.indices.map { .success(found[$0]) }
        } catch {
            return Array(repeating: .failure(error), count: hashes.count)
        }
    }

    func deleteSession(tokenHash: [UInt8]) async throws {
        try await write { scope in
            try await scope.execute("DELETE FROM sessions WHERE token_hash = \(ByteBuffer(bytes: tokenHash))")
        }
    }

    func user(usernameKey: String, viewer: Int64?) async throws -> User? {
        try await read { scope in
            guard let id = try await Self.userId(scope, key: usernameKey) else { return nil }
            return try await Self.fetchUser(scope, id: id, viewer: viewer)
        }
    }

    func user(id: Int64) async throws -> User? {
        try await read { scope in try await Self.fetchUser(scope, id: id, viewer: nil) }
    }

    private static func insertSession(_ scope: PostgresScope, _ session: NewSession, userId: Int64) async throws {
        // Opportunistic clean-up keeps the table from growing with dead sessions.
        try await scope.execute(
            "DELETE FROM sessions WHERE user_id = \(userId) AND expires_at < \(session.createdAt.millisecondsSince1970)")
        try await scope.execute("""
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at, user_agent)
            VALUES (\(ByteBuffer(bytes: session.tokenHash)), \(userId), \(session.createdAt.millisecondsSince1970),
                    \(session.expiresAt.millisecondsSince1970), \(session.publicId), \(session.createdAt.millisecondsSince1970),
                    \(session.userAgent))
            """)
    }
}

/// The sessions behind token hashes (`$1`), on every authenticated request: each found one
/// with its hash's position (from 1).
private enum SessionLookup: PreparedSQL {
    static let sql = """
        SELECT t.ord, s.user_id, u.username, s.expires_at, s.public_id, s.last_used_at
        FROM unnest($1::bytea[]) WITH ORDINALITY AS t(token_hash, ord)
        JOIN sessions s ON s.token_hash = t.token_hash JOIN users u ON u.id = s.user_id
        """
}
