import Synchronization

/// The rate limiter of instances sharing one database (PostgreSQL): counts live in the
/// database, per counter and fixed window, and a limit is judged on the sliding estimate
/// `previous window × its share still in range + current window` (`RateWindow`), so every
/// instance together allows a limit once. (The estimate assumes the previous window's events
/// were spread evenly, so after a burst it may wait longer than an exact window would, up to two
/// windows; `Retry-After` says when the estimate allows the next.)
///
/// So that a frequent event (a direct message) does not cost a database round trip each time,
/// an instance reserves `rule.batch` units at once and spends them locally until its window
/// ends. Reserved units are counted whether spent or not, so the instances together never
/// allow more than the estimate permits; the cost is the other way: a user whose requests move
/// between instances may be refused up to `batch - 1` units early per other instance that
/// holds an unspent reserve (at most 19 of a 200 limit). Near the limit a reservation falls back
/// to a single unit. Rules with a batch of 1 (accounts, tweets, follows, reactions) are one
/// upsert per event. Counters of ended windows are swept at most once a minute.
final class SharedRateLimiter: RateLimiter {
    private struct Reserve {
        var windowStart: Int64
        var remaining: Int
    }

    private let store: any RateCounterStore
    private let now: @Sendable () -> Int64
    private let reserves = Mutex<[String: Reserve]>([:])
    private let lastSweep = Mutex<Int64>(0)

    init(store: any RateCounterStore, now: @escaping @Sendable () -> Int64) {
        self.store = store
        self.now = now
    }

    func acquire(_ rule: RateLimitRule, key: String) async throws -> Int? {
        let counter = rule.name + ":" + key
        let window = RateWindow(now: now(), length: rule.limit.windowSeconds * 1000)
        let spent = reserves.withLock { table -> Bool in
            guard var reserve = table[counter], reserve.windowStart == window.start, reserve.remaining > 0 else {
                return false
            }
            reserve.remaining -= 1
            table[counter] = reserve
            return true
        }
        if spent { return nil }
        sweepIfDue(now: window.now)
        let limit = rule.limit.count
        for units in rule.batch > 1 ? [rule.batch, 1] : [1]
        where try await store.reserve(counter: counter, window: window, units: units, limit: limit) {
            if units > 1 { credit(counter, window: window.start, units: units - 1) }
            return nil
        }
        let counts = try await store.counts(counter: counter, window: window)
        return window.wait(previous: counts.previous, current: counts.current, limit: limit)
    }

    func release(_ rule: RateLimitRule, key: String) {
        let window = RateWindow(now: now(), length: rule.limit.windowSeconds * 1000)
        credit(rule.name + ":" + key, window: window.start, units: 1)
    }

    /// Adds units to this instance's reserve for `counter` in the window starting at `window`.
    private func credit(_ counter: String, window: Int64, units: Int) {
        reserves.withLock { table in
            if var reserve = table[counter], reserve.windowStart == window {
                reserve.remaining += units
                table[counter] = reserve
            } else {
                table[counter] = Reserve(windowStart: window, remaining: units)
            }
            if table.count > 10_000 {
                table = table.filter { _, reserve in reserve.windowStart >= window }
                // Still full (many keys in this window): unspent reserves are dropped, which
                // only means asking the database again.
                if table.count > 10_000 { table.removeAll() }
            }
        }
    }

    /// Deletes ended windows' counters, at most once a minute per instance, beside the request
    /// that noticed it is due (no request waits for it); a failed sweep fails no request (the
    /// next one due tries again).
    private func sweepIfDue(now: Int64) {
        let due = lastSweep.withLock { last in
            guard now - last >= 60_000 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let store = store
        Task { try? await store.sweepRateCounters(now: now) }
    }
}
