import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

/// `chirp bench search`: seeds a SQLite data directory straight through the storage (users
/// and messages, indexed as sends index them), starts a server on it in a child process, and
/// measures two-word searches over HTTP from several users at once.
struct SearchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Seed messages into a SQLite data directory, then measure searches over HTTP.")

    @Option(help: "Messages to seed.") var messages = 1_000_000
    @Option(help: "Users the messages are spread over (user0, user1, …).") var users = 1_000
    @Option(help: "Searches to time.") var queries = 2_000
    @Option(help: "Searches in flight at once.") var concurrency = 4
    @Option(help: "Words per search.") var words = 2
    @Option(help: "Keep the seeded data here (reused when it exists) instead of a temporary directory.") var dataDir:
        String?
    @Flag(help: "Print the figures as JSON.") var json = false

    /// What one run measured.
    struct Report: Encodable {
        var messages: Int
        var users: Int
        var seedSeconds: Double?
        var queries: Int
        var queriesPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        var averageResults: Double
    }

    func validate() throws {
        guard messages >= 1, users >= 2, queries >= 1, concurrency >= 1, words >= 1 else {
            throw ValidationError(
                "--messages, --queries, --concurrency and --words must be at least 1, --users at least 2")
        }
    }

    func run() async throws {
        let directory =
            dataDir.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("chirp-bench-search-\(UUID().uuidString)")
        var seedSeconds: Double?
        if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("chirp.sqlite").path) {
            if !json { print("seeding \(messages) messages over \(users) users into \(directory.path) …") }
            let start = ContinuousClock.now
            try await SearchBenchSeeder.seed(dataDirectory: directory, users: users, messages: messages)
            seedSeconds = (ContinuousClock.now - start).seconds
            if !json, let seedSeconds {
                print(String(format: "seeded in %.1f s (%.0f messages/s)", seedSeconds, Double(messages) / seedSeconds))
            }
        }
        let server = try await ChildServer(
            arguments: LoadBench.serveArguments(dataDirectory: directory),
            ownedDirectory: dataDir == nil ? directory : nil)
        let client = LoadClient(baseURL: server.baseURL, connections: concurrency)
        defer { Task { await client.shutdown() } }
        do {
            let report = try await measure(client, seedSeconds: seedSeconds)
            await server.stop()
            try BenchReportPrinter.print(report, json: json) {
                [
                    String(
                        format:
                            "%d %d-word searches, %d at once: %.0f searches/s   p50 %.2f ms   p99 %.2f ms   max %.2f ms   (%.1f results each on average)",
                        report.queries, words, concurrency, report.queriesPerSecond, report.p50Milliseconds,
                        report.p99Milliseconds,
                        report.maxMilliseconds, report.averageResults)
                ]
            }
        } catch {
            await server.stop()
            throw error
        }
    }

    private func measure(_ client: LoadClient, seedSeconds: Double?) async throws -> Report {
        // One session per worker, each a different seeded user.
        var tokens: [String] = []
        for worker in 0..<concurrency {
            let name = "user\(worker * max(users / concurrency, 1) % users)"
            let reply = try await client.request(
                .POST, "/v1/sessions", json: #"{"username":"\#(name)","password":"\#(SearchBenchSeeder.password)"}"#)
            guard reply.status == 201,
                let token = reply.body.range(of: #""token":""#).map({
                    reply.body[$0.upperBound...].prefix { $0 != "\"" }
                })
            else {
                throw CommandFailure(
                    "logging in as \(name) failed: \(reply.status) \(reply.body.prefix(200)) (was the data seeded by chirp bench search?)"
                )
            }
            tokens.append(String(token))
        }
        var generator = SplitMix(state: 7)
        let searches = (0..<queries).map { _ in SearchBenchSeeder.query(words: words, random: { generator.unit() }) }
        let perWorker = (queries + concurrency - 1) / concurrency
        let start = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for worker in 0..<concurrency {
                let token = tokens[worker]
                let mine = Array(searches.dropFirst(worker * perWorker).prefix(perWorker))
                group.addTask {
                    var latencies: [Double] = []
                    var found = 0
                    for query in mine {
                        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
                        let began = ContinuousClock.now
                        let reply = try await client.request(
                            .GET, "/v1/search/messages?q=\(encoded)&limit=50", token: token)
                        latencies.append((ContinuousClock.now - began).seconds)
                        guard reply.status == 200 else {
                            throw CommandFailure("search failed: \(reply.status) \(reply.body.prefix(200))")
                        }
                        found += reply.body.components(separatedBy: #""clientMessageId""#).count - 1
                    }
                    return (latencies, found)
                }
            }
            var all: [([Double], Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = (ContinuousClock.now - start).seconds
        let summary = LatencySummary(latencies: results.flatMap(\.0), seconds: elapsed)
        return Report(
            messages: messages, users: users, seedSeconds: seedSeconds, queries: summary.count,
            queriesPerSecond: summary.perSecond,
            p50Milliseconds: summary.percentile(0.5), p99Milliseconds: summary.percentile(0.99),
            maxMilliseconds: (summary.sorted.last ?? 0) * 1000,
            averageResults: Double(results.map(\.1).reduce(0, +)) / Double(max(summary.count, 1)))
    }
}
