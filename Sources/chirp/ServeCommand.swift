import ArgumentParser
import ChirpModels
import ChirpServer
import Foundation
import Hummingbird
import Logging

/// `chirp serve`: runs the HTTP API on SQLite (or PostgreSQL) until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Chirp server.",
        discussion: """
            Prints 'chirp: listening on http://HOST:PORT (sqlite: PATH)' once it accepts connections (https:// with \
            --tls-cert and --tls-key). Stop it with Ctrl-C \
            or SIGTERM; it finishes the requests in flight.

            With --database postgres://USER:PASSWORD@HOST:PORT/DATABASE (or CHIRP_DATABASE_URL) the data lives in \
            PostgreSQL instead, and any number of instances may share it behind a load balancer (docs/scale-out.md).
            """)

    @Option(help: "Interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one and prints it.")
    var port = 8080

    @Option(help: "Directory for the SQLite database.")
    var dataDir = "./chirp-data"

    @Option(
        help: ArgumentHelp(
            "PostgreSQL database URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE) to use instead of SQLite; default: $CHIRP_DATABASE_URL.",
            valueName: "url"))
    var database: String?

    @Option(help: "Most PostgreSQL connections this instance holds.")
    var dbPoolSize = 16

    @Option(help: "Share of API requests (0-1) that fail with 503; the rest get 0-200 ms extra latency.")
    var chaos: Double = 0

    @Option(
        help: ArgumentHelp(
            "Test only: answer the first METHOD:PATH request (such as GET:/v1/events) with a 500.", visibility: .hidden)
    )
    var failOnce: [String] = []

    @Flag(help: "Turn off the rate limits below (for benchmarks); the connection limits stay.")
    var noRateLimits = false

    // Rate limits, COUNT/WINDOW with the window in s, m, h or d (shared by every instance on PostgreSQL).
    @Option(help: ArgumentHelp("Direct messages one user may send per window.", valueName: "count/window"))
    var messageLimit = "200/15m"

    @Option(help: ArgumentHelp("Accounts one client address may create per window.", valueName: "count/window"))
    var accountLimit = "10/1h"

    @Option(help: ArgumentHelp("Tweets one user may post per window.", valueName: "count/window"))
    var tweetLimit = "300/3h"

    @Option(help: ArgumentHelp("Follows one user may make per window.", valueName: "count/window"))
    var followLimit = "400/1d"

    @Option(help: ArgumentHelp("Reactions one user may add per window.", valueName: "count/window"))
    var reactionLimit = "1000/1h"

    @Option(
        help: ArgumentHelp(
            "Client log batches (POST /v1/logs) one user may send per window.", valueName: "count/window"))
    var clientLogLimit = "60/1h"

    @Option(help: ArgumentHelp("Reports one user may file per window.", valueName: "count/window"))
    var reportLimit = "20/1h"

    @Option(
        help: ArgumentHelp(
            "Data exports (POST /v1/me/export) one user may start per window.", valueName: "count/window"))
    var exportLimit = "4/1d"

    @Option(
        help: ArgumentHelp(
            "Group changes (create, rename, add, remove, admins, accept, decline) one user may make per window.",
            valueName: "count/window"))
    var groupChangeLimit = "120/1h"

    @Option(
        help: ArgumentHelp("Typing notices (direct and group) one user may send per window.", valueName: "count/window")
    )
    var typingLimit = "120/1m"

    @Option(
        help: ArgumentHelp(
            "How long client log entries are kept (such as 30d, 12h); 0 keeps them.", valueName: "duration"))
    var clientLogRetention = "30d"

    @Option(
        help: ArgumentHelp(
            "How long stored events are kept (such as 30d); 0 keeps them. A client behind this gets events.pruned and refreshes.",
            valueName: "duration"))
    var eventRetention = "30d"

    @Option(help: ArgumentHelp("How long reports are kept (such as 365d); 0 keeps them.", valueName: "duration"))
    var reportRetention = "365d"

    /// The rate-limit options, by flag name.
    var rateLimitOptions: [(flag: String, value: String)] {
        [
            ("--message-limit", messageLimit), ("--account-limit", accountLimit), ("--tweet-limit", tweetLimit),
            ("--follow-limit", followLimit), ("--reaction-limit", reactionLimit),
            ("--client-log-limit", clientLogLimit),
            ("--report-limit", reportLimit), ("--export-limit", exportLimit),
            ("--group-change-limit", groupChangeLimit),
            ("--typing-limit", typingLimit),
        ]
    }

    @Option(help: "Longest a GET /v1/events long-poll is held, in seconds (at most 30).")
    var maxWait = 30

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    // Connection limits (kept on by --no-rate-limits; 0 turns one off).
    @Option(
        help: ArgumentHelp(
            "Seconds a request's head may take, from the connection opening or its first byte.", valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(help: ArgumentHelp("Seconds a kept-alive connection may sit idle between requests.", valueName: "seconds"))
    var idleTimeout: Double = 60

    @Option(help: ArgumentHelp("Connections one client address may hold; more are closed at once.", valueName: "n"))
    var maxConnectionsPerAddress = 256

    @Option(help: ArgumentHelp("Event streams one user may hold; one more closes the oldest (1008).", valueName: "n"))
    var maxStreamsPerUser = 10

    @Option(help: ArgumentHelp("The most members a group may have, its creator included.", valueName: "n"))
    var maxGroupMembers = 256

    @Option(
        help: ArgumentHelp(
            "The most groups one user may be a member of (pending group requests included).", valueName: "n"))
    var maxGroupsPerUser = 500

    @Option(
        help: ArgumentHelp(
            "A proxy (CIDR, IPv4 or IPv6; repeatable) whose X-Forwarded-For names the client: its last untrusted hop.",
            valueName: "cidr"))
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "A host (repeatable) push subscriptions may reach over plain HTTP or on a private network: tests and private push services.",
            valueName: "host"))
    var pushAllowHttpEndpoint: [String] = []

    @Option(
        help: ArgumentHelp(
            "The contact push services see in the VAPID token (RFC 8292): a mailto: or https: URL.", valueName: "url"))
    var pushContact = "mailto:admin@localhost"

    @Option(
        help: ArgumentHelp("Serve HTTPS and WSS with this certificate chain (PEM); needs --tls-key.", valueName: "pem"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --tls-cert.", valueName: "pem"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "The oldest TLS version clients may speak: 1.2 (default; forward-secret AEAD suites only) or 1.3.",
            valueName: "version"))
    var tlsMin = "1.2"

    @Option(
        help: ArgumentHelp("Largest attachment accepted, in bytes (413 media_too_large above it).", valueName: "bytes"))
    var maxMediaBytes: Int64 = 25 * 1024 * 1024

    @Option(
        help: ArgumentHelp("Bytes of attachments one user may hold (403 quota_exceeded above it).", valueName: "bytes"))
    var mediaQuotaBytes: Int64 = 1024 * 1024 * 1024

    @Option(
        help: ArgumentHelp(
            "Directory of attachment bytes (default: media in --data-dir). Instances sharing a PostgreSQL database must share it.",
            valueName: "path"))
    var mediaDir: String?

    @Option(
        help: ArgumentHelp(
            "Test only: bcrypt cost of the password hashes this server makes (4 to 31; 10 when not given).",
            visibility: .hidden))
    var testBcryptCost: UInt8?

    @Option(help: ArgumentHelp("Bench only: serve this file as-is at GET /bench/static.", visibility: .hidden))
    var benchStaticFile: String?

    @Flag(help: ArgumentHelp("Bench only: do not index sends for search (SQLite).", visibility: .hidden))
    var benchWithoutSearchIndex = false

    @Option(
        help: ArgumentHelp(
            "Bench only: seconds between every stream's re-read of storage (default 25).", visibility: .hidden))
    var benchStreamSweepSeconds: Int?

    func validate() throws {
        guard maxMediaBytes > 0, mediaQuotaBytes > 0 else {
            throw ValidationError("--max-media-bytes and --media-quota-bytes take a positive number of bytes.")
        }
        guard (0...1).contains(chaos) else { throw ValidationError("--chaos takes a share from 0 to 1, such as 0.1.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard (0...30).contains(maxWait) else { throw ValidationError("--max-wait takes 0 to 30 seconds.") }
        if let url = databaseURL {
            do { _ = try PostgresSettings(url: url, poolSize: dbPoolSize) } catch {
                throw ValidationError("--database: \(error)")
            }
        }
        guard headerTimeout >= 0, idleTimeout >= 0, maxConnectionsPerAddress >= 0, maxStreamsPerUser >= 0 else {
            throw ValidationError(
                "--header-timeout, --idle-timeout, --max-connections-per-address and --max-streams-per-user take 0 (off) or more."
            )
        }
        if let testBcryptCost, !(4...31).contains(testBcryptCost) {
            throw ValidationError("--test-bcrypt-cost takes 4 to 31.")
        }
        guard maxGroupMembers >= 2 else { throw ValidationError("--max-group-members takes 2 or more.") }
        guard maxGroupsPerUser >= 1 else { throw ValidationError("--max-groups-per-user takes 1 or more.") }
        for (flag, value) in [
            ("--client-log-retention", clientLogRetention), ("--report-retention", reportRetention),
            ("--event-retention", eventRetention),
        ]
        where DurationShorthand.seconds(value).map({ $0 >= 0 }) != true {
            throw ValidationError("\(flag) takes a duration such as 30d, 12h or 0 (keep), not '\(value)'.")
        }
        for option in rateLimitOptions where RateLimit(option.value) == nil {
            throw ValidationError(
                "\(option.flag) takes COUNT/WINDOW such as 10/1h, 300/3h, 400/1d or 5/30s, not '\(option.value)'.")
        }
        for range in trustedProxy where AddressRange(range) == nil {
            throw ValidationError("--trusted-proxy takes a CIDR such as 10.0.0.0/8 or 2001:db8::/32, not '\(range)'.")
        }
        guard pushContact.hasPrefix("mailto:") || pushContact.hasPrefix("https://") else {
            throw ValidationError("--push-contact takes a mailto: or https: URL, such as mailto:ops@example.com.")
        }
        _ = try tls()
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level takes one of: trace, debug, info, notice, warning, error, critical.")
        }
    }

    /// The certificate and key of `--tls-cert` and `--tls-key` (both or neither), loaded.
    func tls() throws -> ServerTLS? {
        guard let minimum = ServerTLS.MinimumVersion(rawValue: tlsMin) else {
            throw ValidationError("--tls-min takes 1.2 or 1.3, not '\(tlsMin)'.")
        }
        switch (tlsCert, tlsKey) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            do {
                return try ServerTLS(certificateFile: certificate, keyFile: key, minimumVersion: minimum)
            } catch {
                throw ValidationError(error.description)
            }
        default: throw ValidationError("--tls-cert and --tls-key go together.")
        }
    }

    /// `--database`, else `CHIRP_DATABASE_URL`; nil (or empty) means SQLite.
    var databaseURL: String? {
        let url = database ?? EnvironmentVariable.value("CHIRP_DATABASE_URL")
        return url?.isEmpty == false ? url : nil
    }

    func run() async throws {
        ServerMemoryTuning.apply()
        // Every connection holds a descriptor: take all the hard limit allows (often 1,024 soft).
        FileDescriptorLimit.raise()
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
        configuration.failOnce = failOnce
        configuration.rateLimitsEnabled = !noRateLimits
        let messages = RateLimit(messageLimit) ?? RateLimit(count: 200, window: .seconds(900))
        configuration.messageRateLimit = messages.count
        configuration.messageRateWindow = messages.window
        configuration.accountCreationLimit = RateLimit(accountLimit) ?? configuration.accountCreationLimit
        configuration.tweetLimit = RateLimit(tweetLimit) ?? configuration.tweetLimit
        configuration.followLimit = RateLimit(followLimit) ?? configuration.followLimit
        configuration.reactionLimit = RateLimit(reactionLimit) ?? configuration.reactionLimit
        configuration.clientLogLimit = RateLimit(clientLogLimit) ?? configuration.clientLogLimit
        configuration.reportLimit = RateLimit(reportLimit) ?? configuration.reportLimit
        configuration.exportLimit = RateLimit(exportLimit) ?? configuration.exportLimit
        configuration.groupChangeLimit = RateLimit(groupChangeLimit) ?? configuration.groupChangeLimit
        configuration.typingLimit = RateLimit(typingLimit) ?? configuration.typingLimit
        configuration.clientLogRetention = .seconds(DurationShorthand.seconds(clientLogRetention) ?? 30 * 86_400)
        configuration.eventRetention = .seconds(DurationShorthand.seconds(eventRetention) ?? 30 * 86_400)
        configuration.reportRetention = .seconds(DurationShorthand.seconds(reportRetention) ?? 365 * 86_400)
        configuration.maxLongPollSeconds = maxWait
        configuration.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.maxStreamsPerUser = maxStreamsPerUser
        configuration.maxGroupMembers = maxGroupMembers
        configuration.maxGroupsPerUser = maxGroupsPerUser
        configuration.trustedProxies = trustedProxy.compactMap(AddressRange.init)
        configuration.pushAllowedHosts = pushAllowHttpEndpoint
        configuration.pushContact = pushContact
        configuration.tls = try tls()
        configuration.maxMediaBytes = maxMediaBytes
        configuration.mediaQuotaBytes = mediaQuotaBytes
        configuration.mediaDirectory = mediaDir.map { URL(fileURLWithPath: $0).standardizedFileURL }
        configuration.benchStaticFile = benchStaticFile.map { URL(fileURLWithPath: $0).standardizedFileURL }
        configuration.benchWithoutSearchIndex = benchWithoutSearchIndex
        if let testBcryptCost { configuration.bcryptCost = testBcryptCost }
        if let benchStreamSweepSeconds { configuration.streamSweepPeriod = .seconds(max(1, benchStreamSweepSeconds)) }
        configuration.postgres = try databaseURL.map { try PostgresSettings(url: $0, poolSize: dbPoolSize) }
        let description = configuration.databaseDescription
        let scheme = configuration.tls == nil ? "http" : "https"
        let app = try await Self.explainingOpenFailure(configuration) {
            try await ChirpServerApplication.make(configuration: configuration) { host, port in
                // Written unbuffered: scripts wait for this line to know the port.
                let line = "chirp: listening on \(scheme)://\(host):\(port) (\(description))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }
        try await app.runService()
    }

    /// Runs `open`, turning a failure into what to tell the operator.
    static func explainingOpenFailure<T>(_ configuration: ServerConfiguration, _ open: () async throws -> T)
        async throws -> T
    {
        do {
            return try await open()
        } catch {
            throw ValidationError(openFailure(error, configuration: configuration))
        }
    }

    /// What to tell the operator when the database cannot be opened.
    static func openFailure(_ error: any Error, configuration: ServerConfiguration) -> String {
        if let postgres = configuration.postgres {
            return "cannot use the PostgreSQL database \(postgres.redactedURL): \(DatabaseFailure.describe(error)). "
                + "Check that PostgreSQL is running there, that the database exists (createdb \(postgres.database)) and that the user may connect."
        }
        if let error = error as? DataDirectoryLockError {
            return "cannot open the database at \(configuration.databaseURL.path): \(error)."
        }
        return
            "cannot open the database at \(configuration.databaseURL.path): \(error). Check that --data-dir is a writable directory."
    }
}
