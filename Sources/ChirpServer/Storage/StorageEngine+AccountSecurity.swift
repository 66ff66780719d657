import ChirpModels

/// The sessions list, ending one, and a password change, written once for both engines.
extension StorageEngine {
    func sessions(userId: Int64, now: Timestamp) async throws -> [StoredSession] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT public_id, created_at, last_used_at, user_agent FROM sessions
                WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC, public_id
                """,
                userId, now
            ).map {
                StoredSession(
                    publicId: try $0("public_id"), createdAt: try $0("created_at"), lastUsedAt: try $0("last_used_at"),
                    userAgent: try $0("user_agent"))
            }
        }
    }

    func deleteSession(userId: Int64, publicId: String) async throws -> Bool {
        try await writing { scope in
            try await scope.run("DELETE FROM sessions WHERE user_id = $1 AND public_id = $2", userId, publicId) > 0
        }
    }

    func touchSession(publicId: String, at: Timestamp) async throws {
        try await writing { scope in
            try await scope.run(
                "UPDATE sessions SET last_used_at = \(scope.dialect.greatest("last_used_at", "$1")) WHERE public_id = $2",
                at, publicId)
        }
    }

    func changePassword(userId: Int64, passwordHash: String, keeping publicId: String) async throws {
        try await writing { scope in
            try await scope.run("UPDATE users SET password_hash = $1 WHERE id = $2", passwordHash, userId)
            try await scope.run("DELETE FROM sessions WHERE user_id = $1 AND public_id <> $2", userId, publicId)
        }
    }
}
