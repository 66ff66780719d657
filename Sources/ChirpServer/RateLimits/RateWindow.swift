/// Where a moment falls among a limit's fixed windows (milliseconds since 1970): the window it
/// is in starts at `start`; the one before it weighs `previousWeight` of its count in the
/// sliding estimate `previous × weight + current` (the share of the previous window still
/// inside a sliding window ending now).
struct RateWindow: Sendable, Hashable {
    let start: Int64
    let length: Int64
    let now: Int64

    init(now: Int64, length: Int64) {
        self.length = max(1, length)
        self.now = now
        self.start = now - ((now % self.length) + self.length) % self.length
    }

    var previousStart: Int64 { start - length }
    var previousWeight: Double { 1 - Double(now - start) / Double(length) }
    /// When a counter row of this window can no longer count: once the next window ended.
    var expiry: Int64 { start + 2 * length }

    /// Seconds until one more event fits under `limit`, with `previous` and `current` counted
    /// (at least 1).
    func wait(previous: Int, current: Int, limit: Int) -> Int {
        let length = Double(self.length)
        let elapsed = Double(now - start)
        let milliseconds: Double
        if current + 1 <= limit {
            // Within this window, once enough of the previous one has slid out.
            let needed = previous > 0 ? length * (1 - Double(limit - 1 - current) / Double(previous)) : elapsed
            milliseconds = needed - elapsed
        } else {
            // In the next window, once enough of this one has slid out.
            milliseconds = (length - elapsed) + length * (1 - Double(limit - 1) / Double(current))
        }
        return max(1, Int((milliseconds / 1000).rounded(.up)))
    }
}
