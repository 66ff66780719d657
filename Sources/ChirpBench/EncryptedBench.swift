import ArgumentParser
import ChirpCommandSupport
import Foundation

/// `chirp bench encrypted`: what end-to-end encryption (issue 55) costs, plaintext and
/// encrypted measured in one sitting against one server. Three parts: sealing and opening
/// alone on one thread (`SealTiming`); direct sends in plaintext and encrypted conversations in
/// rounds taken in turns, the client sealing each message at send time (`EncryptedDirectRun`);
/// and a group of `--members` in plaintext beside an encrypted one, send → delivered to every
/// member and → opened by it (`EncryptedGroupRun`).
struct EncryptedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypted",
        abstract:
            "Measure encrypted against plaintext: direct sends/s with client-side sealing, a group's send → delivered p99, and the CPU per seal.",
        discussion: """
            Without --server a `chirp serve` child process is started on a temporary directory (SQLite), or on \
            --database (PostgreSQL). Against --server, run that server with --no-rate-limits, \
            --max-connections-per-address 0 and --max-group-members at least --members.
            """)

    @Option(help: "Server to measure against; without it a `chirp serve` child process is started.")
    var server: String?
    @Option(help: ArgumentHelp("PostgreSQL database for the child server instead of SQLite.", valueName: "url"))
    var database: String?
    @Option(help: "Sender–peer pairs of each kind (plaintext, encrypted) for the direct sends.")
    var pairs = 16
    @Option(help: "Rounds of direct sends, plaintext and encrypted in turns (P E E P, …).")
    var rounds = 4
    @Option(help: "Seconds of each round of direct sends.")
    var duration = 3
    @Option(help: "Members of each of the two groups, the sender included.")
    var members = 50
    @Option(help: "Group messages per second to each group.")
    var groupRate = 10
    @Option(help: "Seconds of group messages.")
    var groupSeconds = 5.0
    @Option(help: "Arrivals of the encrypted group's messages opened and timed afterwards, at most (spread evenly).")
    var opens = 5000
    @Option(
        help:
            "Seals to one device timed alone; to --members − 1 devices a --members-th as many (about as many HPKE seals)."
    )
    var seals = 500
    @Flag(help: "Print the report as JSON.")
    var json = false

    /// Everything one run measured.
    struct Report: Encodable {
        var sealing: [SealTiming]
        var direct: EncryptedDirectRun.Report
        var group: EncryptedGroupRun.Report

        var lines: [String] {
            ["sealing alone, one thread:"] + sealing.map { "  " + $0.line } + direct.lines + group.lines
        }
    }

    func validate() throws {
        guard pairs >= 1, rounds >= 2, duration >= 1, members >= 2, groupRate >= 1, groupSeconds > 0, seals >= 10,
            opens >= 1
        else {
            throw ValidationError(
                "--pairs, --duration and --group-rate take 1 or more, --rounds and --members 2 or more (both kinds), --seals 10 or more, --opens 1 or more, --group-seconds above 0."
            )
        }
        guard server == nil || database == nil else {
            throw ValidationError("--database is for the child server bench starts; leave it out with --server.")
        }
    }

    func run() async throws {
        // Alone first, before any server is started.
        let sealing = [
            try SealTiming.measure(recipients: 1, count: seals),
            try SealTiming.measure(recipients: members - 1, count: max(2, seals / members)),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-encrypted-\(UUID().uuidString)")
        let child =
            server == nil
            ? try await ChildServer(
                arguments: LoadBench.serveArguments(dataDirectory: directory, database: database)
                    + GroupsBench.serveArguments(members: members),
                ownedDirectory: directory)
            : nil
        let baseURL =
            try child?.baseURL ?? URL(string: server!).orThrow("--server takes a URL such as http://127.0.0.1:8080")
        let client = LoadClient(baseURL: baseURL, connections: 2 * groupRate + 16)
        let report: Report
        do {
            var direct = EncryptedDirectRun(
                client: client, baseURL: baseURL, pairs: pairs, rounds: rounds, seconds: duration)
            if let child { direct.serverCPUSeconds = { child.cpuSeconds } }
            FileHandle.standardError.write(Data("bench: direct sends, \(rounds) rounds of \(duration) s\n".utf8))
            let directReport = try await direct.run()
            FileHandle.standardError.write(Data("bench: group messages for \(groupSeconds) s\n".utf8))
            let groupReport = try await EncryptedGroupRun(
                client: client, baseURL: baseURL, members: members, rate: groupRate, seconds: groupSeconds,
                opens: opens
            ).run()
            report = Report(sealing: sealing, direct: directReport, group: groupReport)
        } catch {
            await client.shutdown()
            await child?.stop()
            throw error
        }
        await client.shutdown()
        await child?.stop()
        try BenchReportPrinter.print(report, json: json) { report.lines }
    }
}
