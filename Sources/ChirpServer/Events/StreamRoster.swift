import Synchronization

/// The open event streams of each user on this instance, oldest first, and the cap
/// (`ServerConfiguration.maxStreamsPerUser`; 0: no cap). A stream over the cap closes the
/// user's oldest one (1008 `too many streams`): a client that reconnects without closing its
/// old streams ends up with its newest ones, and nobody can pile them up. When sessions of a
/// user end (log-out, an ended session, a password change, on this instance or announced by
/// another), the user's streams are checked again and those of ended sessions close (1008
/// `session ended`): a token that stops working stops its stream too.
final class StreamRoster: Sendable {
    /// Asks a stream to close itself with a reason (called outside the lock, from any thread).
    typealias Evict = @Sendable (_ reason: String) -> Void

    private struct Entry {
        let id: ObjectIdentifier
        /// The session the stream was opened with.
        let tokenHash: [UInt8]
        let evict: Evict
    }

    let limit: Int
    private let streams = Mutex<[Int64: [Entry]]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a stream of `userId`; evicts the user's oldest when this one is over the cap.
    func add(userId: Int64, id: ObjectIdentifier, tokenHash: [UInt8], evict: @escaping Evict) {
        let evicted = streams.withLock { streams -> Evict? in
            streams[userId, default: []].append(Entry(id: id, tokenHash: tokenHash, evict: evict))
            guard limit > 0, let count = streams[userId]?.count, count > limit else { return nil }
            return streams[userId]?.removeFirst().evict
        }
        evicted?("too many streams")
    }

    /// Sessions of `userId` ended: closes the user's streams whose session `isLive` no longer
    /// finds (a failed check keeps the stream; its token is checked again at the next ending).
    func sessionsEnded(userId: Int64, isLive: @Sendable (_ tokenHash: [UInt8]) async -> Bool) async {
        let entries = streams.withLock { $0[userId] ?? [] }
        for entry in entries where !(await isLive(entry.tokenHash)) {
            remove(userId: userId, id: entry.id)
            entry.evict("session ended")
        }
    }

    /// Sessions of `userId` ended: closes the streams whose session `store` no longer has.
    func sessionsEnded(userId: Int64, store: any AccountStore) async {
        await sessionsEnded(userId: userId) { tokenHash in
            do { return try await store.session(tokenHash: tokenHash) != nil } catch { return true }
        }
    }

    /// Removes a stream (closed, or evicted); nothing when it is not there.
    func remove(userId: Int64, id: ObjectIdentifier) {
        streams.withLock { streams in
            guard var list = streams[userId] else { return }
            list.removeAll { $0.id == id }
            streams[userId] = list.isEmpty ? nil : list
        }
    }

    /// Streams `userId` holds (for tests).
    func count(userId: Int64) -> Int {
        streams.withLock { $0[userId]?.count ?? 0 }
    }
}
