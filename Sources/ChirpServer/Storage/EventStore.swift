import ChirpModels

/// Events.
protocol EventStore: Sendable {
    /// The user's events after `since` (at most `limit`), and the newest seq they have.
    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventRows
    /// The newest seq of each of these users' streams (0 for a stream with no event yet), in
    /// one query: the stream sweep asks it for many open streams at once.
    func streamHeads(userIds: [Int64]) async throws -> [Int64: Int64]
    /// The event retention's step: deletes the events created before `cutoff` in the streams
    /// of up to `limit` users after user `usersAfter` (each stream keeps its newest event),
    /// then the shared payloads no event names any more.
    func pruneEvents(before cutoff: Timestamp, usersAfter: Int64, limit: Int) async throws -> EventPruning
}

/// What one step of the event retention did.
struct EventPruning: Sendable, Equatable {
    /// The last user whose stream was looked at; nil: there were none after `usersAfter`.
    var lastUserId: Int64?
    /// Events deleted.
    var deleted: Int
}

/// Events after a seq as stored, and the newest seq the user has.
struct EventRows: Sendable {
    var events: [EventRow]
    var head: Int64
}

/// One stored event: its data as stored JSON, or the message a `message.created` row points at.
struct EventRow: Sendable, Equatable {
    enum Data: Sendable, Equatable {
        case json(String)
        case message(Message)
    }

    var seq: Int64
    var type: String
    var createdAt: Timestamp
    var data: Data
}
