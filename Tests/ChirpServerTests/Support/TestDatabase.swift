import ChirpServer
import Foundation
import Logging
import PostgresNIO

/// Which database the server tests use, and the PostgreSQL databases they create.
///
/// - `CHIRP_TEST_POSTGRES_URL` (`postgres://USER:PASSWORD@HOST:PORT/postgres`) says where a
///   PostgreSQL server for tests is; the user must be allowed to create databases.
///   `scripts/postgres-test-cluster start DIR` starts a throw-away one and prints this URL.
/// - `CHIRP_TEST_DATABASE=postgres` runs every in-process test server on PostgreSQL (a fresh
///   database each) instead of SQLite; `.ci/run` runs the server suite once each way.
enum TestDatabase {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The administrative URL of the test PostgreSQL server, if one is configured.
    static var postgresAdminURL: String? {
        environment["CHIRP_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether in-process test servers use PostgreSQL.
    static var usesPostgres: Bool { environment["CHIRP_TEST_DATABASE"] == "postgres" }

    /// Why PostgreSQL tests cannot run here, or nil when they can. In CI a missing server is a
    /// failure, not a skip.
    static var postgresUnavailableReason: String? {
        postgresAdminURL == nil
            ? "CHIRP_TEST_POSTGRES_URL is not set: start a server with scripts/postgres-test-cluster (.ci/run does)"
            : nil
    }

    /// Settings for a database of its own, named after `key` (a data directory, say), so a
    /// restarted server finds the same database.
    static func postgresSettings(key: String, poolSize: Int = 8) -> PostgresSettings? {
        guard let admin = postgresAdminURL, var components = URLComponents(string: admin) else { return nil }
        let safe = key.lowercased().filter { $0.isLetter || $0.isNumber }
        components.path = "/chirp_t_" + String(safe.suffix(40))
        return try? PostgresSettings(url: components.string!, poolSize: poolSize)
    }

    /// Settings for a brand-new database name.
    static func freshPostgresSettings(poolSize: Int = 8) -> PostgresSettings? {
        postgresSettings(key: UUID().uuidString, poolSize: poolSize)
    }

    /// Creates the database of `settings` if it does not exist yet.
    static func create(_ settings: PostgresSettings) async throws {
        try await withAdminConnection(settings) { connection, logger in
            do {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE DATABASE \(settings.database)"), logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                // Already there: a restart of the same server.
            }
        }
    }

    /// Drops the database of `settings`, disconnecting whoever is still on it.
    static func drop(_ settings: PostgresSettings) async {
        try? await withAdminConnection(settings) { connection, logger in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(settings.database) WITH (FORCE)"), logger: logger)
        }
    }

    /// No PostgreSQL server is named (`CHIRP_TEST_POSTGRES_URL`).
    struct MissingServer: Error {}

    /// Runs `body` with one connection to a brand-new, empty database, dropped afterwards
    /// (migration tests, which run the migrator themselves).
    static func withFreshDatabase(_ body: (PostgresConnection, Logger) async throws -> Void) async throws {
        guard let settings = freshPostgresSettings(poolSize: 1) else { throw MissingServer() }
        try await create(settings)
        defer { Task { await drop(settings) } }
        try await withConnection(settings, body)
    }

    /// Runs `body` with a connection of its own to the database of `settings`.
    static func withConnection<T>(
        _ settings: PostgresSettings, _ body: (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "chirp.test.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: settings.host, port: settings.port, username: settings.username,
                password: settings.password, database: settings.database, tls: .disable),
            id: 99, logger: logger)
        do {
            let value = try await body(connection, logger)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func withAdminConnection(
        _ settings: PostgresSettings, _ body: (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        guard let admin = postgresAdminURL else { return }
        try await withConnection(try PostgresSettings(url: admin), body)
    }
}
