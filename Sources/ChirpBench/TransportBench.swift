import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpNetworking
import Foundation

/// `chirp bench transport`: URLSession against AsyncHTTPClient through `APIClient`, on the
/// same server in the same run — the measurement behind the default transport.
struct TransportBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Compare the network layer's transports (URLSession, AsyncHTTPClient) against a server.")

    @Option(help: "Server to measure against; without it an embedded server is started.")
    var server: String?

    @Option(help: "Requests per transport and mode.")
    var requests = 2000

    @Option(help: "Concurrent requests in the concurrent mode.")
    var concurrency = 8

    func run() async throws {
        let embedded = server == nil ? try await EmbeddedServer() : nil
        let baseURL =
            try embedded?.baseURL ?? URL(string: server!).orThrow("--server takes a URL such as http://127.0.0.1:8080")
        let setup = ChirpAPIClient(baseURL: baseURL)
        let name = "bench\(UInt32.random(in: 0...UInt32.max) % 1_000_000)"
        try await setup.register(name, password: "bench-password")
        let token = setup.token
        print("GET /v1/me through APIClient, \(requests) requests each, server \(baseURL.absoluteString)")
        for (label, transport) in [
            ("AsyncHTTPClient", AsyncHTTPClientTransport() as any Transport),
            ("URLSession", URLSessionTransport() as any Transport),
        ] {
            let client = ChirpAPIClient(baseURL: baseURL, token: token, transport: transport)
            _ = try await client.send(ChirpEndpoints.Me())  // warm the connection
            let sequential = try await Self.measure(requests: requests, concurrency: 1, client: client)
            let concurrent = try await Self.measure(requests: requests, concurrency: concurrency, client: client)
            print("  \(label.padding(toLength: 16, withPad: " ", startingAt: 0)) sequential \(sequential.line)")
            print(
                "  \(label.padding(toLength: 16, withPad: " ", startingAt: 0)) \(concurrency) at once \(concurrent.line)"
            )
        }
        await embedded?.stop()
    }

    static func measure(requests: Int, concurrency: Int, client: ChirpAPIClient) async throws -> LatencySummary {
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var local: [Double] = []
                    for _ in stride(from: worker, to: requests, by: concurrency) {
                        let t0 = ContinuousClock.now
                        _ = try await client.send(ChirpEndpoints.Me())
                        local.append((ContinuousClock.now - t0).seconds)
                    }
                    return local
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return LatencySummary(latencies: latencies, seconds: (ContinuousClock.now - start).seconds)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension Optional {
    /// The value, or a usage error with this message.
    func orThrow(_ message: String) throws -> Wrapped {
        guard let value = self else { throw ValidationError(message) }
        return value
    }
}
