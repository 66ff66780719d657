import Synchronization

/// Counts events per key within a sliding time window; used for the direct-message limit
/// (sends per user) and the login throttle (failures per username), and under
/// `MemoryRateLimiter` for every rate limit of a single process.
///
/// State is in memory, per server process. A key's times are kept oldest first and expire
/// from the front, so an event costs O(1) amortised however many the window holds. The table
/// holds at most `capacity` keys whatever the keys are (they may be chosen by a client: a
/// username at login, an address): past it, keys whose events have all expired go first, then
/// the half with the fewest events (the least recent among equals), so a flood of new keys
/// evicts other once-seen keys rather than the counts that stand near their limit. Eviction
/// sorts, but runs once per `capacity / 2` new keys, so it is O(log n) amortised.
final class SlidingWindowLimiter: Sendable {
    /// One key's event times, oldest first; those before `head` have expired.
    private struct Times {
        var stamps: [ContinuousClock.Instant] = []
        var head = 0

        var count: Int { stamps.count - head }

        mutating func expire(before cutoff: ContinuousClock.Instant) {
            while head < stamps.count, stamps[head] <= cutoff { head += 1 }
            if head > 0, head * 2 >= stamps.count {
                stamps.removeFirst(head)
                head = 0
            }
        }
    }

    private let limit: Int
    private let window: Duration
    /// Most keys held at once.
    let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: Times]>([:])

    init(
        limit: Int, window: Duration, capacity: Int = SlidingWindowLimiter.defaultCapacity,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.limit = limit
        self.window = window
        self.capacity = max(2, capacity)
        self.now = now
    }

    /// Seconds until another event is allowed for `key`, or nil when one is allowed now.
    func retryAfter(_ key: String) -> Int? {
        let now = now()
        return entries.withLock { table in
            guard var times = table[key] else { return nil }
            times.expire(before: now - window)
            table[key] = times.count == 0 ? nil : times
            return wait(times, now: now)
        }
    }

    /// Records an event for `key`.
    func record(_ key: String) {
        let now = now()
        entries.withLock { table in
            table[key, default: Times()].stamps.append(now)
            if table.count > capacity { evict(&table, now: now) }
        }
    }

    /// Records an event if one is allowed; otherwise returns the seconds to wait.
    func acquire(_ key: String) -> Int? {
        let now = now()
        return entries.withLock { table in
            var times = table.removeValue(forKey: key) ?? Times()
            times.expire(before: now - window)
            if let wait = wait(times, now: now) {
                table[key] = times
                return wait
            }
            times.stamps.append(now)
            table[key] = times
            if table.count > capacity { evict(&table, now: now) }
            return nil
        }
    }

    /// Takes back the newest event of `key` (a send that turned out to be a replay).
    func release(_ key: String) {
        entries.withLock { table in
            guard var times = table[key], times.count > 0 else { return }
            times.stamps.removeLast()
            table[key] = times.count == 0 ? nil : times
        }
    }

    private func wait(_ times: Times, now: ContinuousClock.Instant) -> Int? {
        guard times.count >= limit else { return nil }
        let freeAt = times.stamps[times.stamps.count - limit] + window
        let seconds = (freeAt - now).components.seconds + 1
        return Int(max(1, seconds))
    }

    /// Keys held now (tests, and the flood script's figures).
    var keyCount: Int { entries.withLock { $0.count } }

    /// Makes room: expired keys go; if more than half the capacity is still held, the keys with
    /// the fewest events (the least recent among equals) go until half is.
    private func evict(_ table: inout [String: Times], now: ContinuousClock.Instant) {
        table = table.filter { _, times in times.stamps.last.map { now - $0 < window } ?? false }
        let keep = capacity / 2
        guard table.count > keep else { return }
        let ranked = table.sorted { left, right in
            let (a, b) = (left.value, right.value)
            return a.count != b.count ? a.count > b.count : (a.stamps.last ?? now) > (b.stamps.last ?? now)
        }
        table = Dictionary(uniqueKeysWithValues: ranked.prefix(keep).map { ($0.key, $0.value) })
    }

    /// Keys a limiter holds at most unless told otherwise.
    static let defaultCapacity = 50_000
}
