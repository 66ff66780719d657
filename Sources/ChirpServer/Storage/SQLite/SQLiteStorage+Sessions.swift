import ChirpModels
import Foundation
import GRDB

/// The session lookup of every request, on SQLite.
extension SQLiteStorage {
    func session(tokenHash: [UInt8]) async throws -> SessionInfo? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT \(SessionSQL.columns) FROM \(SessionSQL.tables) WHERE s.token_hash = ?"
                ),
                arguments: [Data(tokenHash)]
            ).map(SessionSQL.session(from:))
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
