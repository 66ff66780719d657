import Foundation

/// `chirp bench --compare-rate-limits`: the same load run with the rate limits off and then on
/// (out of reach), and what the limiters cost: the ratio of durable sends per second.
struct RateLimitComparison: Encodable {
    let off: LoadReport
    let on: LoadReport
    var ratio: Double { off.sendsPerSecond > 0 ? on.sendsPerSecond / off.sendsPerSecond : 0 }

    var lines: [String] {
        ["rate limits off:"] + off.lines.map { "  " + $0 } + ["rate limits on:"] + on.lines.map { "  " + $0 } + [
            String(format: "durable sends with every rate limit on: %.0f /s against %.0f /s off = %.1f%%",
                   on.sendsPerSecond, off.sendsPerSecond, ratio * 100),
        ]
    }

    private enum CodingKeys: String, CodingKey { case off, on, ratio }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(off, forKey: .off)
        try container.encode(on, forKey: .on)
        try container.encode(ratio, forKey: .ratio)
    }
}
