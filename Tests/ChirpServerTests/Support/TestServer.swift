import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import ChirpServer

/// Runs a Chirp server in this process on a real loopback socket with its own temporary data directory (or, with `CHIRP_TEST_DATABASE=postgres`, its
/// own PostgreSQL database), and hands the test an `APIHarness` for it.
enum TestServer {
    /// A configuration for tests: fast bcrypt (cost 4), a fresh data directory (and database).
    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.dataDirectory = temporaryDirectory()
        // Every test registers from 127.0.0.1; the account limit's own tests set it low.
        configuration.accountCreationLimit = RateLimit(count: 10_000, window: .seconds(3_600))
        if TestDatabase.usesPostgres {
            guard let settings = TestDatabase.postgresSettings(key: configuration.dataDirectory.lastPathComponent)
            else {
                fatalError(
                    "CHIRP_TEST_DATABASE=postgres needs CHIRP_TEST_POSTGRES_URL (scripts/postgres-test-cluster prints it)"
                )
            }
            configuration.postgres = settings
        }
        adjust(&configuration)
        return configuration
    }

    /// A SQLite database that every migration has been applied to, made once per test process
    /// by `SQLiteStorage` itself (and closed): a fresh data directory starts as a copy of it, so
    /// its server opens a database with nothing left to apply, as on a restart, instead of
    /// running every migration again (about 12 ms of CPU per server in the debug build, for
    /// about 400 servers a run). The migrations themselves are tested from their earlier
    /// schemas by the migration tests, and from scratch here.
    static let migratedDatabase = Result<URL, any Error> {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("chirp.sqlite")
        do { _ = try SQLiteStorage(url: url, indexesSends: false) }
        return url
    }

    /// Makes `directory` with a copy of `migratedDatabase` as its `chirp.sqlite`.
    static func seedMigratedDatabase(in directory: URL) throws {
        let template = try migratedDatabase.get()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            let source = URL(fileURLWithPath: template.path + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(
                at: source, to: directory.appendingPathComponent(template.lastPathComponent + suffix))
        }
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
        if let postgres = configuration.postgres {
            do { try await TestDatabase.create(postgres) } catch { throw RevealedError.revealing(error) }
        } else if !FileManager.default.fileExists(atPath: configuration.dataDirectory.path) {
            try seedMigratedDatabase(in: configuration.dataDirectory)
        }
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        do {
            let value = try await serve(configuration, logger: logger, body)
            if let postgres = configuration.postgres { await TestDatabase.drop(postgres) }
            return value
        } catch {
            if let postgres = configuration.postgres { await TestDatabase.drop(postgres) }
            throw RevealedError.revealing(error)
        }
    }

    /// Runs a server over a SQLite storage the test holds (to do to it what a disk might).
    static func run<T: Sendable>(
        storage: SQLiteStorage, _ configuration: ServerConfiguration = configuration(),
        _ body: @Sendable (APIHarness) async throws -> T
    ) async throws -> T {
        try await run(services: ServerServices(configuration: configuration, storage: storage), body)
    }

    /// Runs a server over services the test assembled (its own clock, a look at their state).
    static func run<T: Sendable>(services: ServerServices, _ body: @Sendable (APIHarness) async throws -> T)
        async throws -> T
    {
        var logger = Logger(label: "chirp.test")
        logger.logLevel = .critical
        return try await serve(
            logger: logger,
            makeApp: { onListening in
                ChirpServerApplication.make(services: services, logger: logger, onListening: onListening)
            }, body)
    }

    private static func serve<T: Sendable>(
        _ configuration: ServerConfiguration, logger: Logger, _ body: @Sendable (APIHarness) async throws -> T
    ) async throws -> T {
        try await serve(
            logger: logger,
            makeApp: { onListening in
                try await ChirpServerApplication.make(
                    configuration: configuration, logger: logger, onListening: onListening)
            }, body)
    }

    /// Runs the application in a service group of its own until `body` is done, then shuts it
    /// down gracefully.
    ///
    /// (HummingbirdTesting's live mode also opens a test client connection of its own when the
    /// server starts; a test that finished before that connection was established left it open,
    /// and the graceful shutdown then waited for it forever. Tests here talk through
    /// `APIHarness`, so the server is run directly.)
    static func serve<T: Sendable>(
        logger: Logger,
        makeApp: (_ onListening: @escaping @Sendable (String, Int) async -> Void) async throws -> any Service,
        _ body: @Sendable (APIHarness) async throws -> T
    ) async throws -> T {
        let (ports, announce) = AsyncStream<Int>.makeStream()
        let app = try await makeApp { _, port in announce.yield(port) }
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        // Something a test leaves open (a stream, a long poll, a raw connection) must not hold
        // the shutdown, and with it the whole test run, forever: after the limit the shutdown
        // becomes a cancellation, and the test fails saying so.
        groupConfiguration.maximumGracefulShutdownDuration = shutdownLimit
        groupConfiguration.maximumCancellationDuration = .seconds(10)
        let group = ServiceGroup(configuration: groupConfiguration)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // Ends the wait below if the server stops (or fails to start) first.
                defer { announce.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await tasks.waitForAll()
                throw CancellationError()
            }
            do {
                let value = try await body(APIHarness(port: port))
                try await shutDown(group, tasks: &tasks)
                return value
            } catch {
                try? await shutDown(group, tasks: &tasks)
                throw error
            }
        }
    }

    /// How long a graceful shutdown may take after a test before it counts as stuck.
    static let shutdownLimit: Duration = .seconds(60)

    /// Shuts the group down gracefully and waits for it; records an issue when that took the
    /// whole `shutdownLimit` (the group then ended by cancellation).
    private static func shutDown(_ group: ServiceGroup, tasks: inout ThrowingTaskGroup<Void, any Error>) async throws {
        let started = ContinuousClock.now
        await group.triggerGracefulShutdown()
        defer {
            if ContinuousClock.now - started >= shutdownLimit {
                Issue.record(
                    "the server did not shut down within \(shutdownLimit) after the test: something it opened (a stream, a long poll, a raw connection) was still open"
                )
            }
        }
        try await tasks.waitForAll()
    }
}
