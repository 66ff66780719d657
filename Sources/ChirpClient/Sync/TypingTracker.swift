import Synchronization

/// Who is typing to this user: a `typing` event shows its sender for 30 s, or until a message
/// from them arrives.
public final class TypingTracker: Sendable {
    /// How long one `typing` event shows.
    public static let expiry: Duration = .seconds(30)
    private let clock: ClientClock
    private let until = Mutex<[String: ContinuousClock.Instant]>([:])

    /// A tracker on `clock`.
    public init(clock: ClientClock = .live) { self.clock = clock }

    /// `peer` is typing now.
    public func noteTyping(from peer: String) {
        let deadline = clock.now() + Self.expiry
        until.withLock { $0[peer.lowercased()] = deadline }
    }

    /// `peer` sent a message: they stopped typing it.
    public func noteMessage(from peer: String) {
        _ = until.withLock { $0.removeValue(forKey: peer.lowercased()) }
    }

    /// Peers typing now, sorted (expired entries are dropped).
    public func typingPeers() -> [String] {
        let now = clock.now()
        return until.withLock { table in
            table = table.filter { $0.value > now }
            return table.keys.sorted()
        }
    }
}
