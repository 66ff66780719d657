import ChirpServer
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A Chirp server running inside this process on a free loopback port with a temporary data
/// directory, for `chirp bench` and `chirp demo`.
package final class EmbeddedServer: Sendable {
    package let baseURL: URL
    package let dataDirectory: URL
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>

    package init(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-embedded-\(UUID().uuidString)")
        configure(&configuration)
        var logger = Logger(label: "chirp.embedded")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try await ChirpServerApplication.make(configuration: configuration, logger: logger) { _, port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        runner = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        dataDirectory = configuration.dataDirectory
    }

    /// Stops the server (waiting up to `timeout` for open connections to finish, then cutting
    /// them) and, once it has closed its files, deletes its data.
    package func stop(timeout: Duration = .seconds(5)) async {
        await group.triggerGracefulShutdown()
        let finished = Tally()
        let runner = self.runner
        Task {
            _ = try? await runner.value
            finished.add()
        }
        let deadline = ContinuousClock.now + timeout
        while finished.value == 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        // Removing the directory under a server still shutting down left a data directory
        // behind on a loaded machine (the database wrote its files again).
        if finished.value == 0 { runner.cancel() }
        _ = try? await runner.value
        await Self.remove(dataDirectory)
    }

    /// Removes `directory`, again while anything still writes into it: the storage's
    /// connections close only when the last reference goes, and a file a connection creates
    /// while the removal runs (SQLite's shared-memory index, say) leaves the directory behind.
    private static func remove(_ directory: URL) async {
        for _ in 0..<20 {
            try? FileManager.default.removeItem(at: directory)
            try? await Task.sleep(for: .milliseconds(50))
            if !FileManager.default.fileExists(atPath: directory.path) { return }
        }
    }
}
