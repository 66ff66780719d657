/// Events after a seq, each with its data as the API's JSON, and the newest seq the user has.
struct EventSlice: Sendable {
    var events: [StoredEvent]
    var head: Int64
    /// `events.pruned` (live only), when events after the asked-for seq were pruned: sent
    /// before the events.
    var pruned: StoredEvent? = nil
}

/// A long-poll's answer: stored events, the live-only ones that came during the wait, and
/// the seq to resume after.
struct EventBatch: Sendable {
    /// `events.pruned`, live only, written first.
    var pruned: StoredEvent? = nil
    var events: [StoredEvent]
    var live: [StoredEvent]
    var lastSeq: Int64
}
