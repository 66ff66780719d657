import ChirpModels
import Synchronization

/// Sessions verified recently, by token digest, so that most requests skip a storage read.
///
/// Only for a single instance (SQLite): logging out removes the entry at once, and no other
/// process can revoke a session behind its back. (Instances sharing PostgreSQL use a cache of
/// capacity 0, which holds nothing.) Entries also lapse after `lifetime`, and the session's own
/// expiry is checked on every request either way.
final class SessionCache: Sendable {
    private struct Entry {
        var session: SessionInfo
        var cachedAt: ContinuousClock.Instant
    }

    private let entries = Mutex<[[UInt8]: Entry]>([:])
    private let capacity: Int
    private let lifetime: Duration

    init(capacity: Int = 50_000, lifetime: Duration = .seconds(30)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// The cached session for this digest, if it is fresh.
    func session(for digest: [UInt8]) -> SessionInfo? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[digest] else { return nil }
            guard now - entry.cachedAt < lifetime else {
                entries[digest] = nil
                return nil
            }
            return entry.session
        }
    }

    /// Remembers a session read from storage.
    func store(_ session: SessionInfo, for digest: [UInt8]) {
        guard capacity > 0 else { return }
        let now = ContinuousClock.now
        entries.withLock { entries in
            // Full: start over rather than track recency; the next requests refill it.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[digest] = Entry(session: session, cachedAt: now)
        }
    }

    /// Forgets a session (logout).
    func remove(_ digest: [UInt8]) {
        _ = entries.withLock { $0.removeValue(forKey: digest) }
    }

    /// Forgets every session of a user (one of them ended, a password changed, an account
    /// deleted): the next request with any of their tokens asks storage, where ended ones are gone.
    func removeAll(userId: Int64) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.session.userId != userId }
        }
    }
}
