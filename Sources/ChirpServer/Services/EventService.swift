import ChirpModels
import ServiceLifecycle

/// A user's event stream as the API serves it, for the long-poll route and the WebSocket
/// stream alike: stored events after a seq (a message event rebuilt from its message, as the
/// live event carried it) and waiting for the next commit.
struct EventService: Sendable {
    let store: any EventStore
    let hub: EventHub
    /// The longest a long-poll waits, whatever it asks for.
    let maxWait: Int

    /// The user's events after `since`, at most `limit`.
    func read(userId: Int64, since: Int64, limit: Int) async throws -> EventSlice {
        let rows = try await store.events(userId: userId, since: since, limit: limit)
        var slice = EventSlice(events: rows.events.map(Self.event(from:)), head: rows.head)
        // Seqs have no gaps: a first event past `since + 1` means the ones between were pruned.
        if let first = rows.events.first, first.seq > since + 1 {
            let notice = (try? APIJSON.encode(EventsPrunedNotice(oldestSeq: String(first.seq)))) ?? "{}"
            slice.pruned = StoredEvent(seq: 0, type: EventType.eventsPruned, createdAt: first.createdAt, json: notice)
        }
        return slice
    }

    /// The events after `since`; when there are none and `wait` > 0, waits up to `wait`
    /// seconds for a commit (collecting live-only events meanwhile), or until the server begins
    /// a graceful shutdown, and reads again. A long-poll (`wait` > 0) answers only if
    /// `stillSignedIn` holds when it answers (it throws when the session ended meanwhile, also
    /// when the request was authenticated just before and its first read came after).
    func poll(
        userId: Int64, since: Int64, limit: Int, wait: Int, stillSignedIn: @Sendable () async throws -> Void = {}
    ) async throws -> EventBatch {
        var slice = try await read(userId: userId, since: since, limit: limit)
        var live: [StoredEvent] = []
        if slice.events.isEmpty, wait > 0 {
            // Register before re-reading so a commit between the two reads still wakes us.
            let listener = hub.listen(userId: userId)
            defer { hub.remove(listener) }
            slice = try await read(userId: userId, since: since, limit: limit)
            if slice.events.isEmpty {
                // A graceful shutdown answers at once (the server waits for every response).
                await withGracefulShutdownHandler {
                    await listener.wait(timeout: .seconds(min(wait, maxWait)))
                } onGracefulShutdown: {
                    listener.fire()
                }
                slice = try await read(userId: userId, since: since, limit: limit)
                live = listener.takeLiveEvents()
            }
            try await stillSignedIn()
        }
        return EventBatch(
            pruned: slice.pruned, events: slice.events, live: live, lastSeq: slice.events.last?.seq ?? slice.head)
    }

    /// A stored row as the event it is: its JSON, or the one its message's row makes now (the
    /// message, or for `message.deleted` the notice of its tombstone), as a change to the
    /// message writes it (`MessageChangeJSON`).
    static func event(from row: EventRow) -> StoredEvent {
        switch row.data {
        case .json(let json):
            return StoredEvent(seq: row.seq, type: row.type, createdAt: row.createdAt, json: json)
        case .message(let message):
            let encoding = MessageChangeJSON()
            let json =
                row.type == EventType.messageDeleted
                ? ((try? encoding.deleted(message)) ?? "{}") : encoding.updated(message)
            return StoredEvent(seq: row.seq, type: row.type, createdAt: row.createdAt, json: json)
        }
    }
}
