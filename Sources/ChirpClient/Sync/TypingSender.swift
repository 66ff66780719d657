import Synchronization

/// Decides when to tell a peer "I am typing": on the first keystroke, then again only while
/// typing continues (every `refresh`, so the peer's 30 s expiry never lapses mid-sentence).
/// Seven seconds without a keystroke ends the burst: nothing more is sent until the next one.
public final class TypingSender: Sendable {
    /// A pause this long ends a typing burst.
    public static let idleStop: Duration = .seconds(7)
    /// While a burst goes on, the notice is repeated this often.
    public static let refresh: Duration = .seconds(20)

    private struct Burst {
        var lastKeystroke: ContinuousClock.Instant
        var lastSent: ContinuousClock.Instant
    }

    private let clock: ClientClock
    private let send: @Sendable (String) async -> Void
    private let bursts = Mutex<[String: Burst]>([:])

    /// - Parameter send: posts one `typing` notice to a peer (errors are the caller's to ignore).
    public init(clock: ClientClock = .live, send: @escaping @Sendable (String) async -> Void) {
        self.clock = clock
        self.send = send
    }

    /// A keystroke in the conversation with `peer`; returns whether a notice was sent.
    @discardableResult
    public func keystroke(to peer: String) async -> Bool {
        let now = clock.now()
        let key = peer.lowercased()
        let shouldSend = bursts.withLock { table -> Bool in
            if var burst = table[key], now - burst.lastKeystroke < Self.idleStop {
                burst.lastKeystroke = now
                let due = now - burst.lastSent >= Self.refresh
                if due { burst.lastSent = now }
                table[key] = burst
                return due
            }
            table[key] = Burst(lastKeystroke: now, lastSent: now)
            return true
        }
        if shouldSend { await send(peer) }
        return shouldSend
    }

    /// The message was sent (or the draft cleared): the burst is over.
    public func stopped(to peer: String) {
        _ = bursts.withLock { $0.removeValue(forKey: peer.lowercased()) }
    }

    /// Whether a burst to `peer` is going on (a keystroke within the last seven seconds).
    public func isTyping(to peer: String) -> Bool {
        let now = clock.now()
        return bursts.withLock { $0[peer.lowercased()].map { now - $0.lastKeystroke < Self.idleStop } ?? false }
    }
}
