import NIOCore

/// When a connection's socket stopped being writable, and whether that has lasted too long:
/// the reader behind it stopped reading.
struct StallClock {
    private(set) var unwritableSince: NIODeadline?

    /// Records a writability change at `now`.
    mutating func writabilityChanged(writable: Bool, at now: NIODeadline = .now()) {
        if writable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = now
        }
    }

    /// Whether the socket has been unwritable for longer than `limit` at `now`.
    func isStalled(limit: TimeAmount, at now: NIODeadline = .now()) -> Bool {
        unwritableSince.map { now - $0 > limit } ?? false
    }
}
