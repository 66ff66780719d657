/// Which parts of one conversation's history this client holds whole, as stretches of server
/// message ids: inside a stretch every message of the conversation is stored; between two
/// stretches (and below the oldest, unless it starts at the first message) lies a gap whose
/// messages were never read here. A pure value: `LocalLedger` stores one per conversation and
/// `UserSession` reads history through it, fetching a gap when the reader reaches it.
///
/// What joins a stretch, and why it may:
/// - A page read from the server is whole by itself. A page read `before` a stored message
///   reaches up to it; one that came back short reaches the conversation's first message.
/// - A message from the event stream joins the stretch of the previous message applied from
///   the stream (`eventEdge`): the stream is gap-free and applied in order, so any message in
///   between would have been applied first.
/// - A send's reply joins nothing: its own event joins it later. Until then it shows above the
///   newest stretch, as a pending message does.
/// - Nothing else is assumed: a newest page read after time away that does not meet the stored
///   history leaves a gap below it, however few messages the gap holds.
public struct HistoryStretches: Codable, Sendable, Equatable {
    /// Server ids `low...high` within which every message of the conversation is stored;
    /// `low == 0` when the stretch starts at the conversation's first message.
    public struct Stretch: Codable, Sendable, Equatable {
        public var low: Int64
        public var high: Int64
        public init(low: Int64, high: Int64) {
            self.low = low
            self.high = high
        }

        /// Whether the stretch starts at the conversation's first message.
        public var reachesFirst: Bool { low == 0 }
    }

    /// Where a page of history was read.
    public enum Bound: Sendable, Equatable {
        /// The newest messages.
        case newest
        /// The messages just older than this server id.
        case before(Int64)
        /// The messages just newer than this server id.
        case after(Int64)
    }

    /// Ascending, disjoint and not touching (touching stretches are one).
    public private(set) var stretches: [Stretch] = []
    /// The server id of the newest message applied from the event stream.
    public private(set) var eventEdge: Int64?

    /// No history known.
    public init() {}

    /// A page of `ids` read at `bound` with `limit`: a page shorter than `limit` says the server
    /// had no more in that direction.
    public mutating func add(page ids: [Int64], at bound: Bound, limit: Int) {
        let short = ids.count < limit
        switch bound {
        case .newest:
            guard let low = ids.min(), let high = ids.max() else { return }
            insert(low: short ? 0 : low, high: high)
        case .before(let id):
            insert(low: short ? 0 : ids.min() ?? 0, high: id - 1)
        case .after(let id):
            guard let high = ids.max() else { return }
            insert(low: id + 1, high: high)
        }
    }

    /// A message applied from the event stream: it joins the stretch of the one before it,
    /// since every message in between came on the stream first.
    public mutating func add(streamed id: Int64) {
        if let edge = eventEdge, edge < id { insert(low: edge, high: id) } else { insert(low: id, high: id) }
        eventEdge = max(eventEdge ?? id, id)
    }

    /// The stretch holding server id `id`.
    public func stretch(holding id: Int64) -> Stretch? {
        stretches.first { $0.low <= id && id <= $0.high }
    }

    /// The newest stretch: the one a conversation opens at.
    public var newest: Stretch? { stretches.last }

    /// Adds `low...high`, joining every stretch it overlaps or touches.
    mutating func insert(low: Int64, high: Int64) {
        guard low <= high else { return }
        var joined = Stretch(low: low, high: high)
        var kept: [Stretch] = []
        for stretch in stretches {
            if stretch.high + 1 < joined.low || joined.high + 1 < stretch.low {
                kept.append(stretch)
            } else {
                joined = Stretch(low: min(stretch.low, joined.low), high: max(stretch.high, joined.high))
            }
        }
        kept.append(joined)
        stretches = kept.sorted { $0.low < $1.low }
    }
}
