import ChirpModels
import Foundation
import GRDB

extension SQLiteStorage {
    func createAccount(_ account: NewAccount, session: NewSession) async throws -> User? {
        try await write { db in
            let key = Validation.usernameKey(account.username)
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE username_key = ?"), arguments: [key]) == true {
                return nil
            }
            try db.cachedStatement(sql: """
                INSERT INTO users (username, username_key, display_name, password_hash, created_at)
                VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [
                    account.username, key, account.displayName, account.passwordHash,
                    account.createdAt.millisecondsSince1970,
                ])
            let userId = db.lastInsertedRowID
            try Self.insertSession(db, session, userId: userId)
            return try Self.fetchUser(db, id: userId, viewer: nil)
        }
    }

    func credentials(usernameKey: String) async throws -> Credentials? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, password_hash, suspended_at IS NOT NULL FROM users WHERE username_key = ?"),
                arguments: [usernameKey]
            ).map { Credentials(userId: $0[0], passwordHash: $0[1], suspended: $0[2]) }
        }
    }

    func createSession(_ session: NewSession) async throws -> User? {
        try await write { db in
            guard let user = try Self.fetchUser(db, id: session.userId, viewer: nil),
                try Bool.fetchOne(db.cachedStatement(sql: "SELECT suspended_at IS NULL FROM users WHERE id = ?"), arguments: [session.userId]) == true
            else { return nil }
            try Self.insertSession(db, session, userId: session.userId)
            return user
        }
    }

    func session(tokenHash: [UInt8]) async throws -> SessionInfo? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT s.user_id, u.username, s.expires_at, s.public_id, s.last_used_at FROM sessions s
                    JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?
                    """),
                arguments: [Data(tokenHash)]
            ).map {
                SessionInfo(
                    userId: $0[0], username: $0[1], expiresAt: Timestamp(millisecondsSince1970: $0[2]),
                    publicId: $0[3], lastUsedAt: Timestamp(millisecondsSince1970: $0[4]))
            }
        }
    }

    /// Whether `userId`'s session under `tokenHash` exists and has not expired at `time`.
    static func sessionIsLive(_ db: Database, tokenHash: [UInt8], userId: Int64, at time: Timestamp) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sessions WHERE token_hash = ? AND user_id = ? AND expires_at > ?)"),
            arguments: [Data(tokenHash), userId, time.millisecondsSince1970]) ?? false
    }

    func deleteSession(tokenHash: [UInt8]) async throws {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE token_hash = ?").execute(arguments: [Data(tokenHash)])
        }
    }

    func user(usernameKey: String, viewer: Int64?) async throws -> User? {
        try await read { db in
            guard let id = try Self.userId(db, key: usernameKey) else { return nil }
            return try Self.fetchUser(db, id: id, viewer: viewer)
        }
    }

    func user(id: Int64) async throws -> User? {
        try await read { db in try Self.fetchUser(db, id: id, viewer: nil) }
    }

    private static func insertSession(_ db: Database, _ session: NewSession, userId: Int64) throws {
        // Opportunistic clean-up keeps the table from growing with dead sessions.
        try db.cachedStatement(sql: "DELETE FROM sessions WHERE user_id = ? AND expires_at < ?")
            .execute(arguments: [userId, session.createdAt.millisecondsSince1970])
        try db.cachedStatement(sql: """
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at, public_id, last_used_at, user_agent)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                Data(session.tokenHash), userId, session.createdAt.millisecondsSince1970,
                session.expiresAt.millisecondsSince1970, session.publicId, session.createdAt.millisecondsSince1970,
                session.userAgent,
            ])
    }
}
