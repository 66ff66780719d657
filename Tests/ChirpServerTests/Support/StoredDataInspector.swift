import ChirpServer
import Foundation
import GRDB
import Logging
import PostgresNIO

/// Runs a server whose data outlives it, and reads that data directly (every row of every
/// table, SQLite or PostgreSQL), for tests about what is (and is not) stored.
struct StoredDataInspector {
    let configuration: ServerConfiguration

    init() {
        configuration = TestServer.configuration()
    }

    func withServer<T: Sendable>(_ body: @Sendable (APIHarness) async throws -> T) async throws -> T {
        try await TestServer.run(configuration, body)
    }

    /// Every row of every table (or only of `only`), as text. With PostgreSQL this must run
    /// inside `withServer` (the database is dropped after it).
    func dump(only: String? = nil) async throws -> String {
        if let postgres = configuration.postgres {
            return try await TestDatabase.withConnection(postgres) { connection, logger in
                var out = ""
                let tables = try await connection.query(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'", logger: logger)
                var names: [String] = []
                for try await name in tables.decode(String.self) where only == nil || only == name {
                    names.append(name)
                }
                for table in names {
                    let rows = try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \(table) t"), logger: logger)
                    for try await row in rows.decode(String.self) { out += row + "\n" }
                }
                return out
            }
        }
        let queue = try DatabaseQueue(path: configuration.databaseURL.path)
        return try await queue.read { db in
            var out = ""
            // Every stored table; a virtual table (the search index, which keeps no copy of its
            // text) is read through the shadow tables that hold its data.
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
            for table in tables where only == nil || only == table {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table)") {
                    out += row.description + "\n"
                    for (_, value) in row {
                        if let data = Data.fromDatabaseValue(value) {
                            out += String(decoding: data, as: UTF8.self) + "\n"
                        }
                    }
                }
            }
            return out
        }
    }
}
