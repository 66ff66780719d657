import ChirpModels
import Foundation
import GRDB

/// The session lookup of every request, on SQLite.
extension SQLiteStorage {
    func session(tokenHash: [UInt8]) async throws -> SessionInfo? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
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
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM sessions WHERE token_hash = ? AND user_id = ? AND expires_at > ?)"),
            arguments: [Data(tokenHash), userId, time.millisecondsSince1970]) ?? false
    }
}
