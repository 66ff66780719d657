import ChirpServer
import Foundation
import GRDB
import Logging
import HummingbirdTesting

/// Runs a server on a data directory that outlives it, and reads that database directly, for
/// tests about what is (and is not) stored.
struct SQLiteInspector {
    let directory: URL

    init(directory: URL) throws {
        self.directory = directory
    }

    var databasePath: String { directory.appendingPathComponent("chirp.sqlite").path }

    func withServer<T: Sendable>(_ body: @Sendable (APIHarness) async throws -> T) async throws -> T {
        let configuration = TestServer.configuration { $0.dataDirectory = directory }
        var logger = Logger(label: "chirp.test")
        logger.logLevel = .warning
        let app = try ChirpServerApplication.make(configuration: configuration, logger: logger)
        return try await app.test(.live) { client in try await body(APIHarness(port: client.port!)) }
    }

    /// Every row of every table, as text.
    func dump() throws -> String {
        let queue = try DatabaseQueue(path: databasePath)
        return try queue.read { db in
            var out = ""
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table)") {
                    out += row.description + "\n"
                    for (_, value) in row {
                        if let data = Data.fromDatabaseValue(value) { out += String(decoding: data, as: UTF8.self) + "\n" }
                    }
                }
            }
            return out
        }
    }
}
