import ArgumentParser
import ChirpCommandSupport
import ChirpModels
import Foundation
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp bench durability`: sends under load with client retries (same client id), kills the
/// server with SIGKILL at random moments and restarts it, then checks every acknowledged
/// message exists exactly once, no unacknowledged one exists twice, and every event stream is
/// gap-free. Exits non-zero if anything was lost, duplicated or out of sequence.
struct DurabilityCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "durability",
        abstract: "Kill the server with SIGKILL while it takes sends; count what was lost or duplicated.")

    @Option(help: "How many times to kill and restart the server.") var kills = 5
    @Option(help: "Seconds of sending.") var seconds = 30
    @Option(help: "Concurrent senders.") var senders = 4
    @Option(
        help: ArgumentHelp("PostgreSQL database for the server instead of SQLite (use an empty one).", valueName: "url")
    )
    var database: String?
    @Option(
        help: ArgumentHelp(
            "Instead of killing the server: run this shell command once, at a random moment, to kill the database's primary and promote its standby (--database lists both hosts).",
            valueName: "command"))
    var failover: String?

    /// `chirp serve` arguments on `port` and this run's data.
    func serveArguments(port: Int, data: URL) -> [String] {
        ["serve", "--port", String(port), "--data-dir", data.path, "--no-rate-limits", "--log-level", "error"]
            + (database.map { ["--database", $0] } ?? [])
    }
    @Flag(help: "Print the result as JSON.") var json = false

    struct Result: Encodable {
        var kills: Int
        var failovers: Int
        var acknowledged: Int
        var attemptedNotAcknowledged: Int
        var lost: Int
        var duplicated: Int
        var streamGaps: Int
        var streamsChecked: Int
    }

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-durability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await startServer(data: data)
        let port = server.baseURL.port ?? 0
        let client = LoadClient(baseURL: server.baseURL, connections: senders + 2)
        defer { Task { await client.shutdown() } }

        // Senders and one recipient each; recipients follow their sender.
        var pairs: [(sender: BenchAccount, recipient: BenchAccount)] = []
        let prefix = "d\(UInt32.random(in: 0...UInt32.max) % 100_000)x"
        for index in 0..<senders {
            let sender = try await client.register("\(prefix)s\(index)")
            let recipient = try await client.register("\(prefix)r\(index)")
            _ = try await client.request(.PUT, "/v1/users/\(sender.name)/follow", token: recipient.token)
            pairs.append((sender, recipient))
        }

        let ledger = SendLedger()
        let deadline = ContinuousClock.now + .seconds(seconds)
        let stop = Tally()
        let senderTasks = pairs.map { pair in
            Task {
                var index = 0
                while ContinuousClock.now < deadline {
                    let id = "\(pair.sender.name)-\(index)"
                    index += 1
                    ledger.attempted(id, pair: pair.sender.name)
                    // Retry with the same client id until acknowledged (the server may be down).
                    while stop.value == 0 {
                        let reply = try? await client.request(
                            .PUT, "/v1/conversations/\(pair.recipient.name)/messages/\(id)", token: pair.sender.token,
                            json: #"{"text":"durable \#(id)"}"#)
                        if let reply, reply.status == 200 || reply.status == 201 {
                            ledger.acknowledged(id)
                            break
                        }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
        }
        let start = ContinuousClock.now
        if let failover {
            // The database fails over under the running server, which must follow it.
            try await Task.sleep(until: start + .seconds(Double.random(in: 0.3...0.6) * Double(seconds)))
            try Self.shell(failover)
        }
        // The killer: SIGKILL at random moments, restart on the same port and data.
        var killTimes = (failover == nil ? 0..<kills : 0..<0).map { _ in Double.random(in: 0.1...0.9) * Double(seconds)
        }.sorted()
        while !killTimes.isEmpty {
            let at = killTimes.removeFirst()
            try await Task.sleep(until: start + .seconds(at))
            await server.stop(signal: SIGKILL)
            server = try await restartServer(port: port, data: data)
        }
        for task in senderTasks { await task.value }
        stop.add()

        // Check: every message of every pair, and every stream.
        var lost = 0
        var duplicated = 0
        var gaps = 0
        var streams = 0
        for pair in pairs {
            let stored = try await Self.allMessages(from: pair.sender, to: pair.recipient, client)
            var counts: [String: Int] = [:]
            for id in stored { counts[id, default: 0] += 1 }
            for id in ledger.acknowledgedIDs(pair: pair.sender.name) where counts[id, default: 0] != 1 {
                if counts[id, default: 0] == 0 { lost += 1 } else { duplicated += 1 }
            }
            duplicated += ledger.unacknowledgedIDs(pair: pair.sender.name).filter { counts[$0, default: 0] > 1 }.count
            for account in [pair.sender, pair.recipient] {
                streams += 1
                gaps += try await Self.streamGaps(account, client)
            }
        }
        await server.stop()
        let result = Result(
            kills: failover == nil ? kills : 0, failovers: failover == nil ? 0 : 1,
            acknowledged: ledger.acknowledgedCount, attemptedNotAcknowledged: ledger.unacknowledgedCount,
            lost: lost, duplicated: duplicated, streamGaps: gaps, streamsChecked: streams)
        let fault = failover == nil ? "\(kills) SIGKILLs" : "a database failover (primary killed, standby promoted)"
        try BenchReportPrinter.print(result, json: json) {
            [
                "durability: \(fault) in \(seconds) s, \(senders) senders retrying with the same client id",
                "  acknowledged \(result.acknowledged), in flight at the end \(result.attemptedNotAcknowledged)",
                "  lost \(lost) · duplicated \(duplicated) · stream gaps \(gaps) (\(streams) streams checked)",
            ]
        }
        if lost + duplicated + gaps > 0 { throw ExitCode(1) }
    }

    /// The first server, on a port below the kernel's ephemeral range: the restarts reuse the
    /// port, and a port the kernel hands out (as `--port 0` would) may meanwhile be taken by any
    /// outgoing connection or another test's server. A port someone already listens on is
    /// skipped for another.
    func startServer(data: URL) async throws -> ChildServer {
        let below = Self.ephemeralPortsStart()
        var failure: any Error = CommandFailure("no free port below \(below)")
        for _ in 0..<20 {
            let port = Int.random(in: max(1024, below - 12_000)..<below)
            do { return try await ChildServer(arguments: serveArguments(port: port, data: data)) } catch {
                guard Self.isPortInUse(error) else { throw error }
                failure = error
            }
        }
        throw failure
    }

    /// The server again on `port` after a kill; a port briefly still held (a socket the killed
    /// process left behind) is tried again for up to 10 s.
    func restartServer(port: Int, data: URL) async throws -> ChildServer {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do { return try await ChildServer(arguments: serveArguments(port: port, data: data)) } catch {
                guard Self.isPortInUse(error), ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    static func isPortInUse(_ error: any Error) -> Bool {
        String(describing: error).contains("Address already in use")
    }

    /// The first port of the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`),
    /// 32768 where that cannot be read.
    static func ephemeralPortsStart() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }.map { max($0, 2048) } ?? 32768
    }

    /// Runs `command` with `/bin/sh -c`; throws unless it exits 0.
    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure("the failover command exited with \(process.terminationStatus)")
        }
    }

    /// Client ids of every message `sender` sent `recipient`, paging back from the newest.
    static func allMessages(from sender: BenchAccount, to recipient: BenchAccount, _ client: LoadClient) async throws
        -> [String]
    {
        var ids: [String] = []
        var before: String?
        while true {
            let path = "/v1/conversations/\(recipient.name)/messages?limit=100" + (before.map { "&before=\($0)" } ?? "")
            let reply = try await client.request(.GET, path, token: sender.token)
            guard reply.status == 200, let data = reply.body.data(using: .utf8) else {
                throw CommandFailure("reading messages failed: \(reply.status)")
            }
            let page = try JSONDecoder().decode(Page<Message>.self, from: data)
            ids += page.items.filter { $0.sender == sender.name }.map(\.clientMessageId)
            guard let oldest = page.items.first, page.items.count == 100 else { return ids }
            before = oldest.id
        }
    }

    /// Seqs missing or repeated in a user's stream.
    static func streamGaps(_ account: BenchAccount, _ client: LoadClient) async throws -> Int {
        var expected: Int64 = 1
        var gaps = 0
        while true {
            let reply = try await client.request(
                .GET, "/v1/events?since=\(expected - 1)&limit=1000", token: account.token)
            guard reply.status == 200, let data = reply.body.data(using: .utf8) else {
                throw CommandFailure("reading events failed: \(reply.status)")
            }
            let page = try JSONDecoder().decode(EventsResponse.self, from: data)
            guard !page.events.isEmpty else { return gaps }
            for event in page.events {
                if event.seq != expected { gaps += 1 }
                expected = (event.seq ?? expected) + 1
            }
        }
    }
}

/// Which client ids were attempted and which acknowledged, per sender.
final class SendLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var attempts: [String: [String]] = [:]
    private var acked: Set<String> = []

    func attempted(_ id: String, pair: String) { lock.withLock { attempts[pair, default: []].append(id) } }
    func acknowledged(_ id: String) { _ = lock.withLock { acked.insert(id) } }
    func acknowledgedIDs(pair: String) -> [String] {
        lock.withLock { (attempts[pair] ?? []).filter { acked.contains($0) } }
    }
    func unacknowledgedIDs(pair: String) -> [String] {
        lock.withLock { (attempts[pair] ?? []).filter { !acked.contains($0) } }
    }
    var acknowledgedCount: Int { lock.withLock { acked.count } }
    var unacknowledgedCount: Int { lock.withLock { attempts.values.reduce(0) { $0 + $1.count } - acked.count } }
}
