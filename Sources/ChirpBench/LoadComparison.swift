import Foundation

/// `chirp bench --compare-rate-limits`, `--compare-search-index` and `--compare-build`: the same
/// load run on child servers without and with one change (or of two builds), in the order
/// without, with, with, without (a machine getting busier or quieter during the runs weighs on
/// both alike), and the ratios of the means: durable sends per second, server CPU per send.
struct LoadComparison: Encodable {
    /// The runs the ratio is against.
    let baseline: String
    /// The runs whose cost is measured.
    let variant: String
    let baselineRuns: [LoadReport]
    let variantRuns: [LoadReport]

    static func mean(_ reports: [LoadReport]) -> Double {
        reports.isEmpty ? 0 : reports.map(\.sendsPerSecond).reduce(0, +) / Double(reports.count)
    }

    /// Durable sends per second with the change, as a share of those without it.
    var ratio: Double { Self.mean(baselineRuns) > 0 ? Self.mean(variantRuns) / Self.mean(baselineRuns) : 0 }

    var lines: [String] {
        var lines: [String] = []
        for (variant, reports) in [(baseline, baselineRuns), (variant, variantRuns)] {
            for (index, report) in reports.enumerated() {
                lines.append("\(variant), run \(index + 1):")
                lines += report.lines.map { "  " + $0 }
            }
        }
        lines.append("")
        lines.append("                  durable sends/s   server CPU/send   ack p99   delivered p99   delivered max")
        for (label, reports) in [("baseline", baselineRuns), ("variant", variantRuns)] {
            for report in reports {
                lines.append(
                    String(
                        format: "  %@  %10.0f       %@      %7.2f ms   %9.2f ms   %9.2f ms",
                        label.padding(toLength: 9, withPad: " ", startingAt: 0), report.sendsPerSecond,
                        report.serverCPUPerSendMilliseconds.map { String(format: "%7.3f ms", $0) } ?? "    n/a   ",
                        report.sendAck.p99, report.delivery.p99, report.delivery.max))
            }
        }
        lines.append("  baseline: \(baseline); variant: \(variant)")
        lines.append(
            String(
                format: "durable sends: %.0f /s against the baseline's %.0f /s (means of %d and %d runs) = %.1f%%",
                Self.mean(variantRuns), Self.mean(baselineRuns), variantRuns.count, baselineRuns.count, ratio * 100))
        if let cpuRatio {
            lines.append(String(format: "server CPU per send: %.1f%% of the baseline's", cpuRatio * 100))
        }
        return lines
    }

    /// Server CPU per send with the change, as a share of that without it (when measured).
    var cpuRatio: Double? {
        let variantCPU = variantRuns.compactMap(\.serverCPUPerSendMilliseconds)
        let baselineCPU = baselineRuns.compactMap(\.serverCPUPerSendMilliseconds)
        guard !variantCPU.isEmpty, !baselineCPU.isEmpty else { return nil }
        let baselineMean = baselineCPU.reduce(0, +) / Double(baselineCPU.count)
        return baselineMean > 0 ? variantCPU.reduce(0, +) / Double(variantCPU.count) / baselineMean : nil
    }

    private enum CodingKeys: String, CodingKey { case baseline, variant, baselineRuns, variantRuns, ratio, cpuRatio }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(variant, forKey: .variant)
        try container.encode(baselineRuns, forKey: .baselineRuns)
        try container.encode(variantRuns, forKey: .variantRuns)
        try container.encode(ratio, forKey: .ratio)
        try container.encodeIfPresent(cpuRatio, forKey: .cpuRatio)
    }
}

/// How `chirp bench` runs its child servers.
enum ServerVariant: String, Encodable, CustomStringConvertible {
    /// Rate limits off, search index on: the default.
    case plain
    /// Every rate limit on, set too high to refuse anything (`LoadBench.highRateLimits`).
    case rateLimitsOn
    /// Sends not indexed for search (the hidden `chirp serve --bench-without-search-index`).
    case withoutSearchIndex
    /// Push subscriptions (`LoadBench.deadPushSubscriptions` of them) to a push service that
    /// never answers: what pushing costs a send when the push service is dead.
    case deadPush

    var description: String {
        switch self {
        case .plain: "as served"
        case .rateLimitsOn: "with every rate limit on"
        case .withoutSearchIndex: "without the search index"
        case .deadPush: "with push subscriptions to a dead push service"
        }
    }

    /// The `chirp serve` arguments of the variant.
    var serveArguments: [String] {
        switch self {
        case .plain: ["--no-rate-limits"]
        case .rateLimitsOn: LoadBench.highRateLimits
        case .withoutSearchIndex: ["--no-rate-limits", "--bench-without-search-index"]
        case .deadPush: ["--no-rate-limits", "--push-allow-http-endpoint", "127.0.0.1"]
        }
    }
}
