import Foundation

/// `chirp bench --compare-rate-limits` and `--compare-search-index`: the same load run on child
/// servers without and with one change, in the order without, with, with, without (a machine
/// getting busier or quieter during the runs weighs on both alike), and the ratio of the mean
/// durable sends per second.
struct LoadComparison: Encodable {
    /// The run the ratio is against.
    let baseline: ServerVariant
    /// The run whose cost is measured.
    let variant: ServerVariant
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
                lines.append("\(variant.description), run \(index + 1):")
                lines += report.lines.map { "  " + $0 }
            }
        }
        lines.append(String(
            format: "durable sends %@: %.0f /s against %.0f /s %@ (means of two runs each) = %.1f%%",
            variant.description, Self.mean(variantRuns), baseline.description, Self.mean(baselineRuns), ratio * 100))
        return lines
    }

    private enum CodingKeys: String, CodingKey { case baseline, variant, baselineRuns, variantRuns, ratio }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(variant, forKey: .variant)
        try container.encode(baselineRuns, forKey: .baselineRuns)
        try container.encode(variantRuns, forKey: .variantRuns)
        try container.encode(ratio, forKey: .ratio)
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

    var description: String {
        switch self {
        case .plain: "as served"
        case .rateLimitsOn: "with every rate limit on"
        case .withoutSearchIndex: "without the search index"
        }
    }

    /// The `chirp serve` arguments of the variant.
    var serveArguments: [String] {
        switch self {
        case .plain: ["--no-rate-limits"]
        case .rateLimitsOn: LoadBench.highRateLimits
        case .withoutSearchIndex: ["--no-rate-limits", "--bench-without-search-index"]
        }
    }
}
