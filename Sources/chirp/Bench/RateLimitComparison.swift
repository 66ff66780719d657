import Foundation

/// `chirp bench --compare-rate-limits`: the same load run with the rate limits off and on (out
/// of reach), in the order off, on, on, off, and what the limiters cost: the ratio of the mean
/// durable sends per second.
struct RateLimitComparison: Encodable {
    let off: [LoadReport]
    let on: [LoadReport]

    static func mean(_ reports: [LoadReport]) -> Double {
        reports.isEmpty ? 0 : reports.map(\.sendsPerSecond).reduce(0, +) / Double(reports.count)
    }

    var ratio: Double { Self.mean(off) > 0 ? Self.mean(on) / Self.mean(off) : 0 }

    var lines: [String] {
        var lines: [String] = []
        for (name, reports) in [("rate limits off", off), ("rate limits on", on)] {
            for (index, report) in reports.enumerated() {
                lines.append("\(name), run \(index + 1):")
                lines += report.lines.map { "  " + $0 }
            }
        }
        lines.append(String(
            format: "durable sends with every rate limit on: %.0f /s against %.0f /s off (means of two runs each) = %.1f%%",
            Self.mean(on), Self.mean(off), ratio * 100))
        return lines
    }

    private enum CodingKeys: String, CodingKey { case off, on, ratio }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(off, forKey: .off)
        try container.encode(on, forKey: .on)
        try container.encode(ratio, forKey: .ratio)
    }
}
