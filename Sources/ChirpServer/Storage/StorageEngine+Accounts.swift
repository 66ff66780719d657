import ChirpModels

/// `AccountStore`, written once for both engines (but the session lookup of every request,
/// which each engine serves its own way: `SQLiteStorage+Sessions`, `PostgresStorage+Sessions`).
extension StorageEngine {
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User? {
        try await writing { scope in
            // The unique key decides between two instances registering the same name at once.
            guard
                let userId = try await scope.queryValue(
                    """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at)
                    VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (username_key) DO NOTHING RETURNING id
                    """,
                    account.username, Validation.usernameKey(account.username), account.displayName,
                    account.passwordHash,
                    account.createdAt, as: Int64.self)
            else { return nil }
            try await scope.insertSession(session, userId: userId)
            return try await scope.user(id: userId, viewer: nil)
        }
    }

    func credentials(usernameKey: String) async throws -> Credentials? {
        try await reading { scope in
            try await scope.queryRow(
                "SELECT id, password_hash, suspended_at IS NOT NULL AS suspended FROM users WHERE username_key = $1",
                usernameKey
            ).map {
                Credentials(userId: try $0("id"), passwordHash: try $0("password_hash"), suspended: try $0("suspended"))
            }
        }
    }

    func createSession(_ session: NewSession) async throws -> User? {
        try await writing { scope in
            // On PostgreSQL the row lock orders this against a suspension's update: a session is
            // either deleted by it or never made for a suspended account.
            guard
                try await scope.queryRow(
                    "SELECT 1 AS live FROM users WHERE id = $1 AND suspended_at IS NULL\(scope.dialect.forShare)",
                    session.userId) != nil,
                let user = try await scope.user(id: session.userId, viewer: nil)
            else { return nil }
            try await scope.insertSession(session, userId: session.userId)
            return user
        }
    }

    func deleteSession(tokenHash: [UInt8]) async throws {
        try await writing { scope in
            try await scope.run("DELETE FROM sessions WHERE token_hash = $1", SQLBlob(tokenHash))
        }
    }

    func user(usernameKey: String, viewer: Int64?) async throws -> User? {
        try await reading { scope in
            guard let id = try await scope.userId(key: usernameKey) else { return nil }
            return try await scope.user(id: id, viewer: viewer)
        }
    }

    func user(id: Int64) async throws -> User? {
        try await reading { scope in try await scope.user(id: id, viewer: nil) }
    }
}

extension StorageScope {
    /// Stores a new session of `userId`, after deleting that user's expired ones (so the table
    /// does not grow with dead sessions).
    func insertSession(_ session: NewSession, userId: Int64) async throws {
        try await run("DELETE FROM sessions WHERE user_id = $1 AND expires_at < $2", userId, session.createdAt)
        try await run(
            """
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at, user_agent)
            VALUES ($1, $2, $3, $4, $5, $3, $6)
            """,
            SQLBlob(session.tokenHash), userId, session.createdAt, session.expiresAt, session.publicId,
            session.userAgent)
    }
}
