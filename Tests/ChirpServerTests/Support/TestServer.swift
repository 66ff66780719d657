import ChirpServer
import Foundation
import HummingbirdTesting
import Logging

/// Runs a Chirp server in this process on a real loopback socket (HummingbirdTesting's live
/// mode) with its own temporary data directory (or, with `CHIRP_TEST_DATABASE=postgres`, its
/// own PostgreSQL database), and hands the test an `APIHarness` for it.
enum TestServer {
    /// A configuration for tests: fast bcrypt (cost 4), a fresh data directory (and database).
    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.dataDirectory = temporaryDirectory()
        if TestDatabase.usesPostgres {
            guard let settings = TestDatabase.postgresSettings(key: configuration.dataDirectory.lastPathComponent) else {
                fatalError("CHIRP_TEST_DATABASE=postgres needs CHIRP_TEST_POSTGRES_URL (scripts/postgres-test-cluster prints it)")
            }
            configuration.postgres = settings
        }
        adjust(&configuration)
        return configuration
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chirp-test-\(UUID().uuidString)")
    }

    static func run<T: Sendable>(
        _ configuration: ServerConfiguration = configuration(),
        _ body: @Sendable (APIHarness) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "chirp.test")
        logger.logLevel = .warning
        if let postgres = configuration.postgres { try await TestDatabase.create(postgres) }
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        do {
            let app = try await ChirpServerApplication.make(configuration: configuration, logger: logger)
            let value = try await app.test(.live) { client in
                try await body(APIHarness(port: client.port!))
            }
            if let postgres = configuration.postgres { await TestDatabase.drop(postgres) }
            return value
        } catch {
            if let postgres = configuration.postgres { await TestDatabase.drop(postgres) }
            throw error
        }
    }
}
