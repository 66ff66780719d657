import Synchronization

/// Counts events per key within a sliding time window; used for the direct-message limit
/// (sends per user) and the login throttle (failures per username).
///
/// State is in memory, per server process. Keys whose events have all expired are pruned as
/// the table grows, so memory stays proportional to the keys active within one window.
final class SlidingWindowLimiter: Sendable {
    private let limit: Int
    private let window: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(limit: Int, window: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Seconds until another event is allowed for `key`, or nil when one is allowed now.
    func retryAfter(_ key: String) -> Int? {
        let now = now()
        return entries.withLock { table in
            guard var times = table[key] else { return nil }
            times.removeAll { now - $0 >= window }
            table[key] = times.isEmpty ? nil : times
            return wait(times, now: now)
        }
    }

    /// Records an event for `key`.
    func record(_ key: String) {
        let now = now()
        entries.withLock { table in
            table[key, default: []].append(now)
            if table.count > 10_000 { prune(&table, now: now) }
        }
    }

    /// Records an event if one is allowed; otherwise returns the seconds to wait.
    func acquire(_ key: String) -> Int? {
        let now = now()
        return entries.withLock { table in
            var times = table[key] ?? []
            times.removeAll { now - $0 >= window }
            if let wait = wait(times, now: now) {
                table[key] = times
                return wait
            }
            times.append(now)
            table[key] = times
            if table.count > 10_000 { prune(&table, now: now) }
            return nil
        }
    }

    /// Takes back the newest event of `key` (a send that turned out to be a replay).
    func release(_ key: String) {
        entries.withLock { table in
            guard var times = table[key], !times.isEmpty else { return }
            times.removeLast()
            table[key] = times.isEmpty ? nil : times
        }
    }

    private func wait(_ times: [ContinuousClock.Instant], now: ContinuousClock.Instant) -> Int? {
        guard times.count >= limit else { return nil }
        let freeAt = times[times.count - limit] + window
        let seconds = (freeAt - now).components.seconds + 1
        return Int(max(1, seconds))
    }

    private func prune(_ table: inout [String: [ContinuousClock.Instant]], now: ContinuousClock.Instant) {
        table = table.filter { _, times in times.contains { now - $0 < window } }
    }
}
