/// A length of time as people type it on a command line: whole seconds, or a count with a unit
/// (`30s`, `15m`, `3h`, `7d`). Used by `chirp serve`'s rate limits (`10/1h`) and by
/// `chirp admin reports --since 24h`.
public enum DurationShorthand {
    private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// The seconds `text` stands for; nil for anything else, or a negative count.
    public static func seconds(_ text: some StringProtocol) -> Int64? {
        var size: Int64 = 1
        var digits = Substring(text)
        if let last = digits.last, let unit = units[last] {
            size = unit
            digits = digits.dropLast()
        }
        guard let count = Int64(digits), count >= 0 else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? nil : seconds
    }
}
