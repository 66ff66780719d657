import ArgumentParser

/// `chirp bench`: measurements that report figures (tests assert behaviour; benchmarks report).
/// The `chirp` executable registers it as a subcommand.
package struct BenchCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure parts of Chirp on this machine.",
        subcommands: [
            LoadBench.self, DurabilityCheck.self, TransportBench.self, PersistenceBench.self, LoggingBench.self,
            DeliveryBench.self, RenderBench.self,
            BareServerCommand.self, SearchBench.self, MediaBench.self, HistoryBench.self, ConnectionsBench.self,
            GroupsBench.self, EncryptedBench.self,
            ConnectionsWorker.self,
        ],
        defaultSubcommand: LoadBench.self)

    package init() {}
}

/// Latency figures of one run.
struct LatencySummary {
    var count: Int
    var seconds: Double
    var sorted: [Double]

    init(latencies: [Double], seconds: Double) {
        count = latencies.count
        self.seconds = seconds
        sorted = latencies.sorted()
    }

    var perSecond: Double { Double(count) / seconds }

    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))] * 1000
    }

    var line: String {
        String(format: "%9.0f req/s   p50 %6.2f ms   p99 %6.2f ms", perSecond, percentile(0.5), percentile(0.99))
    }
}
