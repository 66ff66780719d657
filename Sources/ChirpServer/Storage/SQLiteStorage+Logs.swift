import ChirpModels
import Foundation
import GRDB

extension SQLiteStorage {
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "INSERT INTO log_batches (user_id, batch_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                .execute(arguments: [userId, batchId, receivedAt.millisecondsSince1970])
            guard db.changesCount > 0 else { return false }
            let insert = try db.cachedStatement(sql: """
                INSERT INTO client_logs (user_id, batch_id, level, severity, message, logged_at, metadata, source, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for entry in entries {
                let metadata = try entry.metadata.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try insert.execute(arguments: [
                    userId, batchId, entry.level, entry.severity, entry.message, entry.loggedAt.millisecondsSince1970,
                    metadata, entry.source, receivedAt.millisecondsSince1970,
                ])
            }
            return true
        }
    }

    func deleteClientLogs(receivedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await write { db in
            // Entries arrive in id order: the oldest come first in the rowid walk.
            try db.execute(
                sql: "DELETE FROM client_logs WHERE id IN (SELECT id FROM client_logs WHERE received_at < ? ORDER BY id LIMIT ?)",
                arguments: [cutoff.millisecondsSince1970, limit])
            let deleted = db.changesCount
            try db.execute(sql: "DELETE FROM log_batches WHERE received_at < ?", arguments: [cutoff.millisecondsSince1970])
            return deleted
        }
    }

    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT l.level, l.message, l.logged_at, l.metadata, l.source, u.username, l.batch_id
                    FROM client_logs l JOIN users u ON u.id = l.user_id
                    WHERE l.severity >= ? ORDER BY l.id DESC LIMIT ?
                    """),
                arguments: [minimumSeverity, limit]
            ).reversed().map { row in
                let metadata: String? = row[3]
                return ClientLogEntry(
                    level: row[0], message: row[1], loggedAt: Timestamp(millisecondsSince1970: row[2]),
                    metadata: metadata.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) },
                    source: row[4], username: row[5], batchId: row[6])
            }
        }
    }
}
