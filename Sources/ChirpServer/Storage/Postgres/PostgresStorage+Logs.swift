import ChirpModels
import Foundation
import PostgresNIO

extension PostgresStorage {
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws -> Bool {
        try await write { scope in
            let fresh = try await scope.execute("""
                INSERT INTO log_batches (user_id, batch_id, received_at) VALUES (\(userId), \(batchId), \(receivedAt.millisecondsSince1970))
                ON CONFLICT DO NOTHING RETURNING 1
                """)
            guard fresh > 0 else { return false }
            for entry in entries {
                let metadata = try entry.metadata.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try await scope.execute("""
                    INSERT INTO client_logs (user_id, batch_id, level, severity, message, logged_at, metadata, source, received_at)
                    VALUES (\(userId), \(batchId), \(entry.level), \(entry.severity), \(entry.message),
                            \(entry.loggedAt.millisecondsSince1970), \(metadata), \(entry.source), \(receivedAt.millisecondsSince1970))
                    """)
            }
            return true
        }
    }

    func deleteClientLogs(receivedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await write { scope in
            let deleted = try await scope.execute("""
                DELETE FROM client_logs WHERE id IN (
                    SELECT id FROM client_logs WHERE received_at < \(cutoff.millisecondsSince1970) ORDER BY id LIMIT \(limit))
                RETURNING 1
                """)
            try await scope.execute("DELETE FROM log_batches WHERE received_at < \(cutoff.millisecondsSince1970)")
            return deleted
        }
    }

    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry] {
        try await read { scope in
            try await scope.rows("""
                SELECT l.level, l.message, l.logged_at, l.metadata, l.source, u.username, l.batch_id
                FROM client_logs l JOIN users u ON u.id = l.user_id
                WHERE l.severity >= \(minimumSeverity) ORDER BY l.id DESC LIMIT \(limit)
                """
            ).reversed().map { row in
                let metadata: String? = try row.value(3)
                return ClientLogEntry(
                    level: try row.value(0), message: try row.value(1), loggedAt: Timestamp(millisecondsSince1970: try row.value(2)),
                    metadata: metadata.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) },
                    source: try row.value(4), username: try row.value(5), batchId: try row.value(6))
            }
        }
    }
}
