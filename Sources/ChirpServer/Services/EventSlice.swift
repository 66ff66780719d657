/// Events after a seq, each with its data as the API's JSON, and the newest seq the user has.
struct EventSlice: Sendable {
    var events: [StoredEvent]
    var head: Int64
}

/// A long-poll's answer: stored events, the live-only ones that came during the wait, and
/// the seq to resume after.
struct EventBatch: Sendable {
    var events: [StoredEvent]
    var live: [StoredEvent]
    var lastSeq: Int64
}
