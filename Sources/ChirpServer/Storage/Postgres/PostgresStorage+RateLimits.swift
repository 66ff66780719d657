import PostgresNIO

/// The shared rate-limit counters (`SharedRateLimiter`): table `rate_limit_counters`, one row
/// per counter and fixed window. A reservation is one statement outside a transaction: the
/// upsert adds the units only when the sliding estimate stays within the limit, and the row
/// lock of `ON CONFLICT … DO UPDATE` makes concurrent reservations from any instance queue.
extension PostgresStorage: RateCounterStore {
    func reserve(counter: String, window: RateWindow, units: Int, limit: Int) async throws -> Bool {
        let units = Int64(units)
        let limit = Int64(limit)
        let weight = window.previousWeight
        return try await read { scope in
            try await scope.execute(
                """
                WITH previous AS (
                    SELECT COALESCE(MAX(count), 0)::float8 * \(weight) AS estimate FROM rate_limit_counters
                    WHERE key = \(counter) AND window_start = \(window.previousStart))
                INSERT INTO rate_limit_counters AS c (key, window_start, count, expires_at)
                SELECT \(counter), \(window.start), \(units), \(window.expiry) FROM previous
                WHERE previous.estimate + \(units) <= \(limit)
                ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + EXCLUDED.count
                WHERE (SELECT estimate FROM previous) + c.count + EXCLUDED.count <= \(limit)
                RETURNING 1
                """) == 1
        }
    }

    func counts(counter: String, window: RateWindow) async throws -> (previous: Int, current: Int) {
        try await read { scope in
            var previous = 0
            var current = 0
            for row in try await scope.rows(
                """
                SELECT window_start, count FROM rate_limit_counters
                WHERE key = \(counter) AND window_start IN (\(window.previousStart), \(window.start))
                """)
            {
                let count = Int(try row.value(1, as: Int64.self))
                if try row.value(0, as: Int64.self) == window.start { current = count } else { previous = count }
            }
            return (previous, current)
        }
    }

    func sweepRateCounters(now: Int64) async throws {
        _ = try await read { scope in
            try await scope.execute("DELETE FROM rate_limit_counters WHERE expires_at < \(now)")
        }
    }
}
