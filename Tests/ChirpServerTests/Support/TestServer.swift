import ChirpServer
import Foundation
import HummingbirdTesting
import Logging

/// Runs a Chirp server in this process on a real loopback socket (HummingbirdTesting's live
/// mode) with its own temporary data directory, and hands the test an `APIHarness` for it.
enum TestServer {
    /// A configuration for tests: fast bcrypt (cost 4), a fresh data directory.
    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.dataDirectory = temporaryDirectory()
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
        let app = try ChirpServerApplication.make(configuration: configuration, logger: logger)
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        return try await app.test(.live) { client in
            try await body(APIHarness(port: client.port!))
        }
    }
}
