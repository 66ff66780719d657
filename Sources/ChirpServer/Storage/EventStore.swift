import ChirpModels

/// Events.
protocol EventStore: Sendable {
    /// The user's events after `since` (at most `limit`), and the newest seq they have.
    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventRows
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
