import ChirpModels
import Synchronization

/// Sessions verified recently, by token digest, so that most requests skip a storage read.
///
/// Alone on its database (SQLite), an instance is the only one that ends sessions: logging out
/// removes the entry at once, so every request may trust it. Instances sharing PostgreSQL
/// (`sharedDatabase`) cannot know at once what another one ended, so there an entry spares
/// only the lookup of a write that confirms the session in its own statement (the send, see
/// `SessionConfirmation.bySendWrite`); every other request asks the database. Ended sessions
/// announced on the bus are forgotten either way. Entries also lapse after `lifetime`, and
/// the session's own expiry is checked on every request.
final class SessionCache: Sendable {
    private struct Entry {
        var session: SessionInfo
        var cachedAt: ContinuousClock.Instant
    }

    private let entries = Mutex<[[UInt8]: Entry]>([:])
    private let capacity: Int
    private let lifetime: Duration
    /// Other instances may end sessions behind this one's back: an entry is trusted only by
    /// writes that confirm it.
    let sharedDatabase: Bool

    init(capacity: Int = 50_000, lifetime: Duration = .seconds(30), sharedDatabase: Bool = false) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.sharedDatabase = sharedDatabase
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
