import ChirpModels
import Synchronization

/// Decides when a session's `last_used_at` is written: at most once per `interval` per session
/// and process, so a busy client costs one small write a minute, not one per request.
final class SessionUseRecorder: Sendable {
    private let interval: Int64
    private let written = Mutex<[String: Int64]>([:])

    init(interval: Duration = .seconds(60)) {
        self.interval = interval.milliseconds
    }

    /// Whether a use at `now` should be written, given the last use storage knew of
    /// (`stored`); when it says yes, later calls within the interval say no.
    func shouldRecord(session: String, stored: Timestamp, now: Timestamp) -> Bool {
        let nowMs = now.millisecondsSince1970
        return written.withLock { table in
            let last = max(table[session] ?? 0, stored.millisecondsSince1970)
            guard nowMs - last >= interval else {
                if table[session] == nil, table.count < 100_000 { table[session] = last }
                return false
            }
            if table.count >= 100_000 { table.removeAll(keepingCapacity: true) }
            table[session] = nowMs
            return true
        }
    }
}
