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

    /// `member` is typing in the group with key `group` (`ConversationKey`) now.
    public func noteTyping(from member: String, in group: String) {
        noteTyping(from: Self.entry(member, in: group))
    }

    /// `member` sent a message to the group with key `group`: they stopped typing it.
    public func noteMessage(from member: String, in group: String) {
        noteMessage(from: Self.entry(member, in: group))
    }

    /// Peers typing now to this user directly, sorted (expired entries are dropped).
    public func typingPeers() -> [String] {
        current().filter { !$0.contains("/") }
    }

    /// Members typing now in the group with key `group`, sorted.
    public func typingMembers(in group: String) -> [String] {
        let prefix = Self.entry("", in: group)
        return current().filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Every entry not expired, sorted (expired entries are dropped).
    private func current() -> [String] {
        let now = clock.now()
        return until.withLock { table in
            table = table.filter { $0.value > now }
            return table.keys.sorted()
        }
    }

    /// A group member's entry: `g:ID/member` (usernames hold no `/`).
    private static func entry(_ member: String, in group: String) -> String {
        "\(group.lowercased())/\(member.lowercased())"
    }
}
