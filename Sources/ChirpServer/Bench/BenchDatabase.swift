import Foundation
import Logging
import PostgresNIO

/// A throw-away PostgreSQL database for a bench run, made beside the one a URL names (same
/// server and credentials, a new name) and dropped afterwards, so a bench never seeds into a
/// database that holds anything else.
package enum BenchDatabase {
    /// Creates a new database `chirp_bench_…` on the server of `settings` and returns settings
    /// for it (with `settings`' pool size).
    package static func create(beside settings: PostgresSettings) async throws -> PostgresSettings {
        var fresh = settings
        fresh.database = "chirp_bench_" + UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(16)
        let name = fresh.database
        try await withConnection(settings) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        return fresh
    }

    /// Drops the database of `fresh` (made by `create`), disconnecting whoever is still on it;
    /// connects through `settings`' database to do so.
    package static func drop(_ fresh: PostgresSettings, connectingTo settings: PostgresSettings) async throws {
        try await withConnection(settings) { connection, logger in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(fresh.database) WITH (FORCE)"), logger: logger)
        }
    }

    private static func withConnection(
        _ settings: PostgresSettings, _ body: (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        let logger = Logger(label: "chirp.bench.database")
        let (connection, _) = try await PostgresPrimary.connect(
            settings, applicationName: "chirp-bench", logger: logger)
        do {
            try await body(connection, logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
