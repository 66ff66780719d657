import ChirpModels
import Foundation

/// `ClientLogStore`, written once for both engines.
extension StorageEngine {
    func storeLogs(userId: Int64, batchId: String, entries: [ClientLogEntry], receivedAt: Timestamp) async throws
        -> Bool
    {
        try await writing { scope in
            let fresh = try await scope.run(
                "INSERT INTO log_batches (user_id, batch_id, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                userId, batchId, receivedAt)
            guard fresh > 0 else { return false }
            for entry in entries {
                let metadata = try entry.metadata.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try await scope.run(
                    """
                    INSERT INTO client_logs (user_id, batch_id, level, severity, message, logged_at, metadata, source, received_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                    """,
                    userId, batchId, entry.level, entry.severity, entry.message, entry.loggedAt, metadata, entry.source,
                    receivedAt)
            }
            return true
        }
    }

    func deleteClientLogs(receivedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await writing { scope in
            // Entries arrive in id order: the oldest come first.
            let deleted = try await scope.run(
                "DELETE FROM client_logs WHERE id IN (SELECT id FROM client_logs WHERE received_at < $1 ORDER BY id LIMIT $2)",
                cutoff, limit)
            try await scope.run("DELETE FROM log_batches WHERE received_at < $1", cutoff)
            return deleted
        }
    }

    func clientLogs(minimumSeverity: Int, limit: Int) async throws -> [ClientLogEntry] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT l.level, l.message, l.logged_at, l.metadata, l.source, u.username, l.batch_id
                FROM client_logs l JOIN users u ON u.id = l.user_id
                WHERE l.severity >= $1 ORDER BY l.id DESC LIMIT $2
                """,
                minimumSeverity, limit
            ).reversed().map { row in
                let metadata: String? = try row("metadata")
                return ClientLogEntry(
                    level: try row("level"), message: try row("message"), loggedAt: try row("logged_at"),
                    metadata: metadata.flatMap {
                        try? JSONDecoder().decode([String: String].self, from: Data($0.utf8))
                    },
                    source: try row("source"), username: try row("username"), batchId: try row("batch_id"))
            }
        }
    }
}
