import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

/// `chirp bench connections`: how many live event streams one server holds, what each costs it,
/// and how fast messages reach them with all of them connected.
struct ConnectionsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connections",
        abstract:
            "Hold N live event streams on one server, then send among them: RSS per connection, set-up rate, delivery p50/p99.",
        discussion: """
            Starts a `chirp serve` child process (SQLite, rate limits off, every connection limit at its default) on \
            accounts seeded straight into its database, opens --count WebSockets over their sessions (--streams-per-user \
            each, from as many loopback source addresses as --per-address needs), then sends --rate messages/s for \
            --seconds from --senders accounts to everyone in turn. Each process needs a descriptor per connection: \
            bench raises its limit (and, as root, the hard limit) before starting the server, which inherits it.

            With --database postgres://… it starts --instances `chirp serve` processes on a new database of that \
            PostgreSQL server (made beside the URL's database, with its credentials, and dropped afterwards), seeds it \
            directly, and holds the streams in --workers worker processes of this binary: stream i goes to instance \
            i % --instances, so most deliveries cross the cluster event bus. Each process may hold at most its hard \
            descriptor limit of connections: raise --instances and --workers with --count.
            """)

    @Option(help: "Event streams to open.") var count = 10_000
    @Option(help: "Event streams per account (the server allows 10 by default).") var streamsPerUser = 4
    @Option(help: "Connections from one loopback source address (the server allows 256 by default).") var perAddress =
        200
    @Option(help: "Handshakes in flight while connecting (in each worker with --database).") var inFlight = 256
    @Option(help: "Messages per second once everyone is connected.") var rate = 1000
    @Option(help: "Seconds of sending.") var seconds = 20
    @Option(help: "Accounts that send (everyone follows them); one keep-alive connection each.") var senders = 50
    @Option(help: ArgumentHelp("Another chirp binary to run as the server (default: this one).", valueName: "path"))
    var serverBuild: String?
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL server URL: run the instances on a new database there instead of one server on SQLite.",
            valueName: "url"))
    var database: String?
    @Option(help: "Server instances on --database.") var instances = 1
    @Option(help: "Worker processes holding the streams (with --database).") var workers = 1
    @Option(
        help: ArgumentHelp(
            "Seconds between every stream's re-read of the database on the servers (the server's default: 25), to measure what it costs.",
            valueName: "seconds")) var streamSweep: Int?
    @Flag(help: "Print the report as JSON.") var json = false

    func validate() throws {
        guard count >= 2 else { throw ValidationError("--count takes 2 or more.") }
        guard (1...10).contains(streamsPerUser) else {
            throw ValidationError("--streams-per-user takes 1 to 10 (the server's default cap).")
        }
        guard (1...256).contains(perAddress) else {
            throw ValidationError("--per-address takes 1 to 256 (the server's default cap).")
        }
        guard inFlight >= 1, rate >= 1, seconds >= 1, senders >= 1 else {
            throw ValidationError("--in-flight, --rate, --seconds and --senders take 1 or more.")
        }
        if let streamSweep, streamSweep < 1 { throw ValidationError("--stream-sweep takes 1 second or more.") }
        guard instances >= 1, workers >= 1 else { throw ValidationError("--instances and --workers take 1 or more.") }
        guard database != nil || (instances == 1 && workers == 1) else {
            throw ValidationError(
                "--instances and --workers above 1 need --database postgres://…: instances share one PostgreSQL database."
            )
        }
        if let database {
            do { _ = try PostgresSettings(url: database) } catch { throw ValidationError("--database: \(error)") }
            // Every process holds a descriptor per connection, plus a few hundred of its own.
            let hard = FileDescriptorLimit.current.hard
            for (flag, processes) in [("--instances", instances), ("--workers", workers)]
            where (count + processes - 1) / processes + 300 > hard {
                throw ValidationError(
                    """
                    \(count) streams over \(flag) \(processes) are \((count + processes - 1) / processes) per process, and a process may \
                    hold \(hard) open files (the hard limit): raise \(flag) or the limit (`ulimit -Hn`, as root).
                    """)
            }
        }
        if let serverBuild, !FileManager.default.isExecutableFile(atPath: serverBuild) {
            throw ValidationError(
                "--server-build takes the path of a chirp binary; \(serverBuild) is not an executable file.")
        }
    }

    func run() async throws {
        if let database {
            try await runOnCluster(database: try PostgresSettings(url: database))
            return
        }
        // This process holds one descriptor per stream, the server one per connection; both
        // need a few more (listening socket, database files, event loops).
        let wanted = count + senders + 200
        let limit = FileDescriptorLimit.raise(to: wanted)
        guard limit >= wanted else {
            throw CommandFailure(
                """
                \(count) connections need \(wanted) open files in each process, and this one may have \(limit). \
                Raise the limit (`ulimit -n \(wanted)`, or LimitNOFILE= in a systemd unit), lower --count, or spread the \
                streams over several processes: --database postgres://… --instances N --workers N.
                """)
        }
        let users = (count + streamsPerUser - 1) / streamsPerUser
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-\(UUID().uuidString)")
        progress("seeding \(users) accounts")
        let accounts = try await ConnectionBenchSeeder.seed(dataDirectory: directory, users: users, senders: senders)
        let server = try await ChildServer(
            executable: serverBuild.map { URL(fileURLWithPath: $0) },
            arguments: [
                "serve", "--port", "0", "--data-dir", directory.path, "--log-level", "error", "--no-rate-limits",
            ] + sweepArguments,
            ownedDirectory: directory)
        let run = ConnectionsRun(server: server, plan: plan(accounts), progress: progress)
        var report: ConnectionsReport
        do {
            report = try await run.run()
        } catch {
            let ended = server.unexpectedEnd
            await server.stop()
            if let ended { throw CommandFailure("\(error)\n\(ended)") }
            throw error
        }
        report.serverEnded = server.unexpectedEnd
        await server.stop()
        try BenchReportPrinter.print(report, json: json) { report.lines }
    }

    /// `--database`: the instances on a new database of that server, the streams in the workers.
    private func runOnCluster(database: PostgresSettings) async throws {
        let users = (count + streamsPerUser - 1) / streamsPerUser
        progress("creating a database beside \(database.redactedURL)")
        let fresh = try await BenchDatabase.create(beside: database)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-\(UUID().uuidString)")
        var started: [ChildServer] = []
        var report: ConnectionsReport
        do {
            progress("seeding \(users) accounts into \(fresh.database)")
            let accounts = try await ConnectionBenchSeeder.seed(postgres: fresh, users: users, senders: senders)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let accountsFile = directory.appendingPathComponent("accounts.json")
            try JSONEncoder().encode(accounts).write(to: accountsFile)
            for index in 0..<instances {
                let data = directory.appendingPathComponent("instance\(index)")
                started.append(
                    try await ChildServer(
                        executable: serverBuild.map { URL(fileURLWithPath: $0) },
                        arguments: [
                            "serve", "--port", "0", "--data-dir", data.path, "--database", fresh.url, "--log-level",
                            "error", "--no-rate-limits",
                        ]
                            + sweepArguments))
            }
            progress(
                "\(instances) instances on \(fresh.database): "
                    + started.map(\.baseURL.absoluteString).joined(separator: " "))
            let run = ConnectionsClusterRun(
                instances: started, accountsFile: accountsFile, plan: plan(accounts), workers: workers,
                progress: progress)
            report = try await run.run()
        } catch {
            let ended = started.compactMap(\.unexpectedEnd)
            await Self.cleanUp(started, directory: directory, database: fresh, beside: database)
            if !ended.isEmpty { throw CommandFailure("\(error)\n" + ended.joined(separator: "\n")) }
            throw error
        }
        let ended = started.compactMap(\.unexpectedEnd)
        report.serverEnded = ended.isEmpty ? nil : ended.joined(separator: "\n")
        await Self.cleanUp(started, directory: directory, database: fresh, beside: database)
        try BenchReportPrinter.print(report, json: json) { report.lines }
    }

    /// Stops the instances, removes their directory and drops the run's database.
    private static func cleanUp(
        _ instances: [ChildServer], directory: URL, database fresh: PostgresSettings, beside database: PostgresSettings
    ) async {
        for instance in instances { await instance.stop() }
        try? FileManager.default.removeItem(at: directory)
        do {
            try await BenchDatabase.drop(fresh, connectingTo: database)
        } catch {
            FileHandle.standardError.write(Data("bench: could not drop \(fresh.database): \(error)\n".utf8))
        }
    }

    /// `--stream-sweep` for the servers.
    private var sweepArguments: [String] { streamSweep.map { ["--bench-stream-sweep-seconds", String($0)] } ?? [] }

    /// The run the options ask for, on the seeded accounts.
    private func plan(_ accounts: [ConnectionBenchSeeder.Account]) -> ConnectionsPlan {
        ConnectionsPlan(
            accounts: accounts.map { BenchAccount(name: $0.name, token: $0.token) }, count: count,
            streamsPerUser: streamsPerUser,
            perAddress: perAddress, inFlight: inFlight, rate: rate, seconds: seconds,
            senders: min(senders, accounts.count))
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
    }
}
