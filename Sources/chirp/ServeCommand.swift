import ArgumentParser
import ChirpServer
import Foundation
import Hummingbird
import Logging

/// `chirp serve`: runs the HTTP API on SQLite until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Chirp server.",
        discussion: "Prints 'chirp: listening on http://HOST:PORT (sqlite: PATH)' once it accepts connections. Stop it with Ctrl-C or SIGTERM; it finishes the requests in flight.")

    @Option(help: "Interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one and prints it.")
    var port = 8080

    @Option(help: "Directory for the SQLite database.")
    var dataDir = "./chirp-data"

    @Option(help: "Share of API requests (0-1) that fail with 503; the rest get 0-200 ms extra latency.")
    var chaos: Double = 0

    @Flag(help: "Turn off the per-user direct-message rate limit (for benchmarks).")
    var noRateLimits = false

    @Option(help: "Longest a GET /v1/events long-poll is held, in seconds (at most 30).")
    var maxWait = 30

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...1).contains(chaos) else { throw ValidationError("--chaos takes a share from 0 to 1, such as 0.1.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard (0...30).contains(maxWait) else { throw ValidationError("--max-wait takes 0 to 30 seconds.") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level takes one of: trace, debug, info, notice, warning, error, critical.")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = URL(fileURLWithPath: dataDir).standardizedFileURL
        configuration.chaosRate = chaos
        configuration.rateLimitsEnabled = !noRateLimits
        configuration.maxLongPollSeconds = maxWait
        let databasePath = configuration.databaseURL.path
        let app = try Result {
            try ChirpServerApplication.make(configuration: configuration) { host, port in
                // Written unbuffered: scripts wait for this line to know the port.
                let line = "chirp: listening on http://\(host):\(port) (sqlite: \(databasePath))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }.mapError { error in
            ValidationError("cannot open the database at \(databasePath): \(error). Check that --data-dir is a writable directory.")
        }.get()
        try await app.runService()
    }
}
