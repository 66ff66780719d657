import ArgumentParser
import ChirpCommandSupport
import ChirpModels
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// `chirp bench` (the default bench): durable sends under load, deliveries over WebSockets,
/// reads, server memory, and the same run's figure for a bare Hummingbird route.
struct LoadBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract:
            "Load a server: sends/s, send-ack and delivery latency (HdrHistogram), reads/s, RSS, and the bare-route ratio.",
        discussion: """
            Without --server a `chirp serve` child process is started on a temporary directory (--embedded), or on \
            --database (PostgreSQL); --instances N starts N of them on that database, and the load is spread over \
            them (each sender and each WebSocket sticks to one instance, in turn).
            """)

    @Option(help: "Server to load (run it with --no-rate-limits); default: a child `chirp serve`.") var server: String?
    @Flag(help: "Start a server for the run (the default without --server).") var embedded = false
    @Option(help: ArgumentHelp("PostgreSQL database for the child server(s) instead of SQLite.", valueName: "url"))
    var database: String?
    @Option(help: "Child server instances on --database, sharing the load.") var instances = 1
    @Option(help: "Users; each gets a WebSocket.") var users = 50
    @Option(help: "Concurrent senders (one keep-alive connection each).") var senders = 16
    @Option(help: "Seconds of sending.") var duration = 10
    @Option(help: "Target sends per second in total (0: as fast as possible).") var rate = 0
    @Option(help: "Hold this many idle WebSockets instead, and report RSS per connection.") var idleSockets = 0
    @Flag(help: "Run the child server(s) with every rate limit on, set too high to refuse anything (their cost).")
    var rateLimitsOn = false
    @Flag(help: "Run four times, rate limits off, on, on, off (on as --rate-limits-on), and report the ratio.")
    var compareRateLimits = false
    @Flag(
        help: "Run four times, search index off, on, on, off (SQLite), and report the ratio: what indexing sends costs."
    ) var compareSearchIndex = false
    @Option(
        help: ArgumentHelp(
            "Another chirp binary (say main's build) to run the same load against, alternating with this one (that, this, this, that, …); prints both and the ratio.",
            valueName: "path")) var compareBuild: String?
    @Option(help: "With --compare-build: runs of each build.") var runs = 2
    @Option(
        help: ArgumentHelp(
            "Run four times, without and with N push subscriptions (at most 10 per user) to a push service that never answers, and report the ratio.",
            valueName: "n")) var compareDeadPush: Int?
    @Flag(help: "Print the report as JSON.") var json = false

    /// Every rate limit on but out of reach: what the limiters cost per request.
    static let highRateLimits = [
        "--message-limit", "1000000000/15m", "--account-limit", "1000000/1h", "--tweet-limit", "1000000000/3h",
        "--follow-limit", "1000000000/1d", "--reaction-limit", "1000000000/1h",
    ]

    func validate() throws {
        guard instances >= 1 else { throw ValidationError("--instances takes 1 or more.") }
        guard instances == 1 || database != nil else {
            throw ValidationError(
                "--instances above 1 needs --database postgres://…: instances share one PostgreSQL database.")
        }
        guard server == nil || !(rateLimitsOn || compareRateLimits || compareSearchIndex || compareBuild != nil) else {
            throw ValidationError(
                "--rate-limits-on, --compare-rate-limits, --compare-search-index and --compare-build set up the child servers bench starts."
            )
        }
        guard [rateLimitsOn, compareRateLimits, compareSearchIndex, compareBuild != nil].filter({ $0 }).count <= 1
        else {
            throw ValidationError(
                "Take one of --rate-limits-on, --compare-rate-limits, --compare-search-index and --compare-build.")
        }
        if let compareBuild {
            guard FileManager.default.isExecutableFile(atPath: compareBuild) else {
                throw ValidationError(
                    "--compare-build takes the path of a chirp binary; \(compareBuild) is not an executable file (build one with `swift build -c release` in a checkout of the other commit)."
                )
            }
            guard runs >= 1 else { throw ValidationError("--runs takes 1 or more.") }
            guard idleSockets == 0 else {
                throw ValidationError("--compare-build compares loads; leave out --idle-sockets.")
            }
        }
        guard !compareSearchIndex || database == nil else {
            throw ValidationError("--compare-search-index measures the SQLite index; leave out --database.")
        }
        guard server == nil || (database == nil && instances == 1) else {
            throw ValidationError(
                "--server loads a running server; --database and --instances are for the child servers bench starts.")
        }
    }

    func run() async throws {
        if let compareBuild {
            try await compareBuilds(other: URL(fileURLWithPath: compareBuild))
            return
        }
        let (baseline, variant): (ServerVariant, ServerVariant)
        if compareRateLimits {
            (baseline, variant) = (.plain, .rateLimitsOn)
        } else if compareSearchIndex {
            (baseline, variant) = (.withoutSearchIndex, .plain)
        } else if compareDeadPush != nil {
            (baseline, variant) = (.plain, .deadPush)
        } else {
            if let report = try await runOnce(rateLimitsOn ? .rateLimitsOn : .plain) {
                try emit(report) { report.lines }
            }
            return
        }
        // Without, with, with, without: a machine getting busier or quieter during the runs weighs on both alike.
        var runs: [LoadReport] = []
        for next in [baseline, variant, variant, baseline] {
            guard let report = try await runOnce(next) else { return }
            runs.append(report)
        }
        let comparison = LoadComparison(
            baseline: baseline.description, variant: variant.description, baselineRuns: [runs[0], runs[3]],
            variantRuns: [runs[1], runs[2]])
        try emit(comparison) { comparison.lines }
    }

    /// `--compare-build`: the other binary and this one in turns (that, this, this, that, and
    /// again for more runs), so a machine getting busier or quieter weighs on both alike.
    private func compareBuilds(other: URL) async throws {
        let this = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var thoseRuns: [LoadReport] = []
        var theseRuns: [LoadReport] = []
        for turn in 0..<(2 * runs) {
            let runsOther = turn % 4 == 0 || turn % 4 == 3
            let label = runsOther ? "that build" : "this build"
            FileHandle.standardError.write(Data("bench: run \(turn + 1) of \(2 * runs), \(label)\n".utf8))
            guard let report = try await runOnce(.plain, executable: runsOther ? other : this) else { return }
            if runsOther { thoseRuns.append(report) } else { theseRuns.append(report) }
        }
        let comparison = LoadComparison(
            baseline: "that build (\(other.path))", variant: "this build (\(this.path))", baselineRuns: thoseRuns,
            variantRuns: theseRuns)
        try emit(comparison) { comparison.lines }
    }

    /// One run (on child servers of `executable`, or this binary); nil when it reported already
    /// (idle sockets).
    private func runOnce(_ variant: ServerVariant, executable: URL? = nil) async throws -> LoadReport? {
        var started: [ChildServer] = []
        if server == nil {
            for _ in 0..<instances {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "chirp-bench-\(UUID().uuidString)")
                // Idle sockets are one user's streams from one address: a measurement of memory
                // per connection, so that run lifts the per-user and per-address caps.
                let uncapped =
                    idleSockets > 0 ? ["--max-streams-per-user", "0", "--max-connections-per-address", "0"] : []
                let arguments =
                    Self.serveArguments(dataDirectory: directory, database: database, variant: variant) + uncapped
                started.append(
                    try await ChildServer(executable: executable, arguments: arguments, ownedDirectory: directory))
            }
        }
        let children = started
        do {
            return try await measure(children: children, variant: variant)
        } catch {
            // Stop the servers (and remove their data) before reporting the failure.
            for child in children { await child.stop() }
            throw error
        }
    }

    private func measure(children: [ChildServer], variant: ServerVariant) async throws -> LoadReport? {
        let child = children.first
        let baseURL =
            try child?.baseURL ?? URL(string: server!).orThrow("--server takes a URL such as http://127.0.0.1:8080")
        let baseURLs = children.isEmpty ? [baseURL] : children.map(\.baseURL)
        if idleSockets > 0 {
            let report = try await IdleSocketsRun(baseURL: baseURL, count: idleSockets, server: child).run()
            try emit(report) { report.lines }
            for child in children { await child.stop() }
            return nil
        }
        let cpu: @Sendable () -> Double? = { children.isEmpty ? nil : children.compactMap(\.cpuSeconds).reduce(0, +) }
        var run = LoadRun(
            baseURLs: baseURLs, users: max(users, 2), senders: max(senders, 1), duration: duration, rate: rate,
            serverCPUSeconds: cpu)
        var deadPush: DeadPushService?
        if variant == .deadPush {
            let service = try await DeadPushService.start(subscriptions: compareDeadPush ?? 0)
            run.afterSetup = { client, accounts in try await service.subscribe(accounts, through: client) }
            deadPush = service
        }
        var report = try await run.run()
        if let deadPush {
            FileHandle.standardError.write(Data("bench: \(await deadPush.summary())\n".utf8))
            await deadPush.stop()
        }
        report.instances = baseURLs.count
        report.serverRSSBytes = children.isEmpty ? nil : children.compactMap(\.residentBytes).reduce(0, +)
        for child in children { await child.stop() }
        // The ceiling: a route that does nothing, in its own process, at the same concurrency.
        let bare = try await ChildServer(arguments: ["bench", "bare-server"])
        report.bareRequestsPerSecond = try await LoadRun.hammer(
            baseURL: bare.baseURL, path: "/bare", workers: max(senders, 1), seconds: 3)
        await bare.stop()
        report.durableToBareRatio =
            report.bareRequestsPerSecond > 0 ? report.sendsPerSecond / report.bareRequestsPerSecond : 0
        report.variant = variant
        return report
    }

    static func serveArguments(dataDirectory: URL, database: String? = nil, variant: ServerVariant = .plain) -> [String]
    {
        ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--log-level", "error"]
            + variant.serveArguments
            + (database.map { ["--database", $0] } ?? [])
    }

    func emit<T: Encodable>(_ value: T, lines: () -> [String]) throws {
        try BenchReportPrinter.print(value, json: json, lines: lines)
    }
}

/// What one load run measured.
struct LoadReport: Encodable {
    var users: Int
    var senders: Int
    var instances = 1
    var seconds: Double
    var sends: Int
    var sendErrors: Int
    var sendsPerSecond: Double
    var sendAck: LatencyPercentiles
    var delivery: LatencyPercentiles
    var undelivered: Int
    var timelineReadsPerSecond: Double
    var messagePageReadsPerSecond: Double
    var readErrors: Int
    var serverRSSBytes: Int?
    /// CPU time of the server process(es) during the sending, per durable send, in milliseconds.
    var serverCPUPerSendMilliseconds: Double?
    var bareRequestsPerSecond: Double = 0
    var durableToBareRatio: Double = 0
    /// How the child servers ran (every rate limit on, the search index off).
    var variant = ServerVariant.plain

    var lines: [String] {
        [
            "\(users) users, \(senders) senders, \(String(format: "%.1f", seconds)) s"
                + (instances > 1 ? ", \(instances) instances" : "")
                + (variant == .plain ? "" : ", \(variant)"),
            String(format: "  durable sends     %8.0f /s   (%d sent, %d errors)", sendsPerSecond, sends, sendErrors),
            "  send → ack        " + sendAck.line,
            "  send → delivered  " + delivery.line + (undelivered > 0 ? " · \(undelivered) not delivered" : ""),
            String(format: "  timeline reads    %8.0f /s", timelineReadsPerSecond),
            String(format: "  message pages     %8.0f /s   (%d read errors)", messagePageReadsPerSecond, readErrors),
            "  server CPU/send   "
                + (serverCPUPerSendMilliseconds.map { String(format: "%.3f ms", $0) } ?? "n/a (external server)"),
            "  server RSS        "
                + (serverRSSBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "n/a (external server)")
                + (instances > 1 ? " (all instances)" : ""),
            String(
                format: "  bare route        %8.0f req/s · durable sends are %.0f%% of it", bareRequestsPerSecond,
                durableToBareRatio * 100),
        ]
    }
}

/// One load run against a server: setup, sending with deliveries, then reads.
struct LoadRun {
    /// The instances to load; senders and WebSockets are spread over them in turn.
    let baseURLs: [URL]
    let users: Int
    let senders: Int
    let duration: Int
    let rate: Int
    /// CPU seconds the server process(es) have used so far, when bench started them.
    var serverCPUSeconds: @Sendable () -> Double? = { nil }
    /// Runs after the accounts and follows are made, before the streams open.
    var afterSetup: @Sendable (LoadClient, [BenchAccount]) async throws -> Void = { _, _ in }

    func run() async throws -> LoadReport {
        let client = LoadClient(baseURL: baseURLs[0], connections: 8)
        defer { Task { await client.shutdown() } }
        let prefix = "b\(UInt32.random(in: 0...UInt32.max) % 100_000)x"
        // Accounts, eight registrations at a time (bcrypt dominates).
        var accounts: [BenchAccount] = []
        for batch in stride(from: 0, to: users, by: 8) {
            accounts += try await withThrowingTaskGroup(of: BenchAccount.self) { group in
                for index in batch..<min(batch + 8, users) {
                    group.addTask { try await client.register("\(prefix)\(index)") }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.name < $1.name }
            }
        }
        // Everyone follows the senders, so each sender may message anyone.
        let sendersAccounts = Array(accounts.prefix(senders))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for account in accounts {
                group.addTask {
                    for sender in sendersAccounts where sender.name != account.name {
                        _ = try await client.request(.PUT, "/v1/users/\(sender.name)/follow", token: account.token)
                    }
                }
            }
            try await group.waitForAll()
        }

        try await afterSetup(client, accounts)
        let ack = LatencyRecorder()
        let delivery = LatencyRecorder()
        let origin = LoadClock()
        var sockets: [DeliveryListeners] = []
        for (index, url) in baseURLs.enumerated() {
            let share = accounts.enumerated().filter { $0.offset % baseURLs.count == index }.map(\.element)
            sockets.append(
                try await DeliveryListeners.open(baseURL: url, accounts: share, origin: origin, recorder: delivery))
        }

        // Sending: one keep-alive connection per sender, each to its recipients in turn.
        let expected = Tally()
        let errors = Tally()
        // Scripts that profile the server (scripts/profile-send-path) wait for this line.
        FileHandle.standardError.write(Data("bench: sending for \(duration) s\n".utf8))
        let start = ContinuousClock.now
        let cpuAtStart = serverCPUSeconds()
        let deadline = NIODeadline.now() + .seconds(Int64(duration))
        let interval: TimeAmount? = rate > 0 ? .nanoseconds(Int64(1e9 * Double(senders) / Double(rate))) : nil
        let sends = sendersAccounts.enumerated().map { index, sender in
            let recipients = accounts.filter { $0.name != sender.name }.map(\.name)
            let url = baseURLs[index % baseURLs.count]
            let plan = LoadPlan(
                request: RequestTemplate.message(
                    host: url, token: sender.token, recipients: recipients, idPrefix: "\(prefix)s\(index)n",
                    clock: origin),
                completed: { _, status, nanoseconds in
                    if status == 201 {
                        ack.record(microseconds: Int64(nanoseconds / 1000))
                        expected.add()
                    } else {
                        errors.add()
                    }
                },
                deadline: deadline, interval: interval,
                phase: interval.map { .nanoseconds($0.nanoseconds * Int64(index) / Int64(senders)) } ?? .zero)
            return LoadConnection.run(plan: plan, host: url.host ?? "127.0.0.1", port: url.port ?? 80)
        }
        for result in try await EventLoopFuture.whenAllComplete(sends, on: MultiThreadedEventLoopGroup.singleton.any())
            .get()
        {
            if case .failure = result { errors.add() }
        }
        let elapsed = ContinuousClock.now - start
        let sent = expected.value
        // Let the last deliveries arrive (up to 5 s).
        let drain = ContinuousClock.now + .seconds(5)
        while Int(delivery.count) < sent, ContinuousClock.now < drain { try await Task.sleep(for: .milliseconds(20)) }
        // The server's CPU for the sends and their deliveries (the reads below are not counted).
        let cpuAtEnd = serverCPUSeconds()
        let cpuDuringSends: Double? = if let cpuAtStart, let cpuAtEnd { cpuAtEnd - cpuAtStart } else { nil }
        // scripts/count-send-instructions stops counting at this line, before the reads.
        FileHandle.standardError.write(Data("bench: sent \(sent)\n".utf8))
        for listeners in sockets { listeners.close() }

        // Reads: the timeline and a page of a conversation, alternately, at the same concurrency.
        let readSeconds = max(2, duration / 4)
        let timelineReads = Tally()
        let pageReads = Tally()
        let readErrors = Tally()
        let readDeadline = NIODeadline.now() + .seconds(Int64(readSeconds))
        let reads = accounts.prefix(senders).enumerated().map { index, reader in
            let peer = accounts[(index + 1) % accounts.count].name
            let url = baseURLs[index % baseURLs.count]
            let timeline = RequestTemplate.get(host: url, path: "/v1/timeline?limit=20", token: reader.token)
            let page = RequestTemplate.get(
                host: url, path: "/v1/conversations/\(peer)/messages?limit=50", token: reader.token)
            let plan = LoadPlan(
                request: { turn in turn % 2 == 0 ? (timeline, nil) : (page, nil) },
                completed: { turn, status, _ in
                    if status == 200 {
                        (turn % 2 == 0 ? timelineReads : pageReads).add()
                    } else {
                        readErrors.add()
                    }
                },
                deadline: readDeadline, interval: nil)
            return LoadConnection.run(plan: plan, host: url.host ?? "127.0.0.1", port: url.port ?? 80)
        }
        for result in try await EventLoopFuture.whenAllComplete(reads, on: MultiThreadedEventLoopGroup.singleton.any())
            .get()
        {
            if case .failure = result { readErrors.add() }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return LoadReport(
            users: users, senders: senders, seconds: seconds, sends: sent, sendErrors: errors.value,
            sendsPerSecond: Double(sent) / seconds, sendAck: ack.summary, delivery: delivery.summary,
            undelivered: max(0, sent - Int(delivery.count)),
            timelineReadsPerSecond: Double(timelineReads.value) / Double(readSeconds),
            messagePageReadsPerSecond: Double(pageReads.value) / Double(readSeconds),
            readErrors: readErrors.value, serverRSSBytes: nil,
            serverCPUPerSendMilliseconds: cpuDuringSends.flatMap { sent > 0 ? $0 * 1000 / Double(sent) : nil })
    }

    /// Requests per second of `GET path` with `workers` concurrent keep-alive connections.
    static func hammer(baseURL: URL, path: String, workers: Int, seconds: Int) async throws -> Double {
        let done = Tally()
        let head = RequestTemplate.get(host: baseURL, path: path, token: nil)
        let plan = LoadPlan(
            request: { _ in (head, nil) },
            completed: { _, status, _ in if status == 200 { done.add() } },
            deadline: .now() + .seconds(Int64(seconds)), interval: nil)
        let runs = (0..<workers).map { _ in
            LoadConnection.run(plan: plan, host: baseURL.host ?? "127.0.0.1", port: baseURL.port ?? 80)
        }
        _ = try await EventLoopFuture.whenAllComplete(runs, on: MultiThreadedEventLoopGroup.singleton.any()).get()
        return Double(done.value) / Double(seconds)
    }
}
