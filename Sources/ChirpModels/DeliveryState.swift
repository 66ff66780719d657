/// Where a message stands, as the user sees it, and the order those states come in: written
/// once for Swift here (the client kit's `LocalMessage` keeps it; the web client has the same
/// order in `message-state.js`, where `pending` is called `sending`).
///
/// Outgoing: `pending` (stored here, not yet acknowledged) → `sent` (the server acknowledged
/// it) → `delivered` (it is in the recipient's event stream: the client saw it come back on its
/// own stream, which the server appends in the same transaction) → `read` (the recipient's
/// read marker covers it); or `failed` (the server refused it; retry by hand). Incoming
/// messages are `received`.
public enum DeliveryState: String, Codable, Sendable, CaseIterable {
    case pending, sent, delivered, read, failed, received

    /// How far along the outgoing path a state is; a message never moves backwards.
    var rank: Int {
        switch self {
        case .failed: 0
        case .pending: 1
        case .sent: 2
        case .delivered: 3
        case .read: 4
        case .received: 5
        }
    }

    /// The later of two states (a stale update never undoes a newer one); a retry takes a
    /// `failed` message back to `pending`.
    public func advanced(to other: DeliveryState) -> DeliveryState {
        if self == .failed, other == .pending { return .pending }
        return other.rank > rank ? other : self
    }
}
