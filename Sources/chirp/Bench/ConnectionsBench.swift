import ArgumentParser
import ChirpServer
import Foundation

/// `chirp bench connections`: how many live event streams one server holds, what each costs it,
/// and how fast messages reach them with all of them connected.
struct ConnectionsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connections",
        abstract: "Hold N live event streams on one server, then send among them: RSS per connection, set-up rate, delivery p50/p99.",
        discussion: """
            Starts a `chirp serve` child process (SQLite, rate limits off, every connection limit at its default) on \
            accounts seeded straight into its database, opens --count WebSockets over their sessions (--streams-per-user \
            each, from as many loopback source addresses as --per-address needs), then sends --rate messages/s for \
            --seconds from --senders accounts to everyone in turn. Each process needs a descriptor per connection: \
            bench raises its limit (and, as root, the hard limit) before starting the server, which inherits it.
            """)

    @Option(help: "Event streams to open.") var count = 10_000
    @Option(help: "Event streams per account (the server allows 10 by default).") var streamsPerUser = 4
    @Option(help: "Connections from one loopback source address (the server allows 256 by default).") var perAddress = 200
    @Option(help: "Handshakes in flight while connecting.") var inFlight = 256
    @Option(help: "Messages per second once everyone is connected.") var rate = 1000
    @Option(help: "Seconds of sending.") var seconds = 20
    @Option(help: "Accounts that send (everyone follows them); one keep-alive connection each.") var senders = 50
    @Option(help: ArgumentHelp("Another chirp binary to run as the server (default: this one).", valueName: "path")) var serverBuild: String?
    @Flag(help: "Print the report as JSON.") var json = false

    func validate() throws {
        guard count >= 2 else { throw ValidationError("--count takes 2 or more.") }
        guard (1...10).contains(streamsPerUser) else { throw ValidationError("--streams-per-user takes 1 to 10 (the server's default cap).") }
        guard (1...256).contains(perAddress) else { throw ValidationError("--per-address takes 1 to 256 (the server's default cap).") }
        guard inFlight >= 1, rate >= 1, seconds >= 1, senders >= 1 else {
            throw ValidationError("--in-flight, --rate, --seconds and --senders take 1 or more.")
        }
        if let serverBuild, !FileManager.default.isExecutableFile(atPath: serverBuild) {
            throw ValidationError("--server-build takes the path of a chirp binary; \(serverBuild) is not an executable file.")
        }
    }

    func run() async throws {
        // This process holds one descriptor per stream, the server one per connection; both
        // need a few more (listening socket, database files, event loops).
        let wanted = count + senders + 200
        let limit = FileDescriptorLimit.raise(to: wanted)
        guard limit >= wanted else {
            throw CommandFailure("""
                \(count) connections need \(wanted) open files in each process, and this one may have \(limit). \
                Raise the limit (`ulimit -n \(wanted)`, or LimitNOFILE= in a systemd unit) or lower --count.
                """)
        }
        let users = (count + streamsPerUser - 1) / streamsPerUser
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-bench-\(UUID().uuidString)")
        progress("seeding \(users) accounts")
        let accounts = try await ConnectionBenchSeeder.seed(dataDirectory: directory, users: users, senders: senders)
        let server = try await ChildServer(
            executable: serverBuild.map { URL(fileURLWithPath: $0) },
            arguments: ["serve", "--port", "0", "--data-dir", directory.path, "--log-level", "error", "--no-rate-limits"],
            ownedDirectory: directory)
        let run = ConnectionsRun(
            server: server, accounts: accounts.map { BenchAccount(name: $0.name, token: $0.token) }, count: count,
            streamsPerUser: streamsPerUser, perAddress: perAddress, inFlight: inFlight, rate: rate, seconds: seconds,
            senders: min(senders, users), progress: progress)
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

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
    }
}
