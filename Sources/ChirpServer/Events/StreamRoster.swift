import Synchronization

/// The open event streams of each user on this instance, oldest first, and the cap
/// (`ServerConfiguration.maxStreamsPerUser`; 0: no cap). A stream over the cap closes the
/// user's oldest one (1008 `too many streams`): a client that reconnects without closing its
/// old streams ends up with its newest ones, and nobody can pile them up.
final class StreamRoster: Sendable {
    /// Asks a stream to close itself (called outside the lock, from any thread).
    typealias Evict = @Sendable () -> Void

    let limit: Int
    private let streams = Mutex<[Int64: [(id: ObjectIdentifier, evict: Evict)]]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a stream of `userId`; evicts the user's oldest when this one is over the cap.
    func add(userId: Int64, id: ObjectIdentifier, evict: @escaping Evict) {
        let evicted = streams.withLock { streams -> Evict? in
            streams[userId, default: []].append((id, evict))
            guard limit > 0, let count = streams[userId]?.count, count > limit else { return nil }
            return streams[userId]?.removeFirst().evict
        }
        evicted?()
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
