import ChirpModels
import PostgresNIO

/// The session lookup of every request, on PostgreSQL: gathered into one query per batch.
extension PostgresStorage {
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
                    found[Int(try row("ord", as: Int64.self)) - 1] = try SessionSQL.session(from: row)
                }
                return found
            }
            return hashes.indices.map { .success(found[$0]) }
        } catch {
            return Array(repeating: .failure(error), count: hashes.count)
        }
    }
}

/// The sessions behind token hashes (`$1`), on every authenticated request: each found one
/// with its hash's position (from 1).
private enum SessionLookup: PreparedSQL {
    static let sql = """
        SELECT t.ord, \(SessionSQL.columns) FROM unnest($1::bytea[]) WITH ORDINALITY AS t(token_hash, ord)
        JOIN (\(SessionSQL.tables)) ON s.token_hash = t.token_hash
        """
}
