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
            try await scope.row("SELECT id, password_hash FROM users WHERE username_key = \(usernameKey)")
                .map { Credentials(userId: try $0.value(0), passwordHash: try $0.value(1)) }
        }
    }

    func createSession(_ session: NewSession) async throws -> User? {
        try await write { scope in
            guard let user = try await Self.fetchUser(scope, id: session.userId, viewer: nil) else { return nil }
            try await Self.insertSession(scope, session, userId: session.userId)
            return user
        }
    }

    func session(tokenHash: [UInt8]) async throws -> SessionInfo? {
        try await read { scope in
            try await scope.rows(PreparedQuery(SessionLookup.self, Self.binds(ByteBuffer(bytes: tokenHash)))).first.map {
                SessionInfo(
                    userId: try $0.value(0), username: try $0.value(1),
                    expiresAt: Timestamp(millisecondsSince1970: try $0.value(2)),
                    publicId: try $0.value(3), lastUsedAt: Timestamp(millisecondsSince1970: try $0.value(4)))
            }
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

/// The session behind a token hash, on every authenticated request.
private enum SessionLookup: PreparedSQL {
    static let sql = """
        SELECT s.user_id, u.username, s.expires_at, s.public_id, s.last_used_at FROM sessions s
        JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1
        """
}
