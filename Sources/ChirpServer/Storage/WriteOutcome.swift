import ChirpModels

/// The result of a write: the value, whether it was newly created (or a replay), and the events
/// it appended to users' streams in the same transaction.
struct WriteOutcome<Value: Sendable>: Sendable {
    var value: Value
    var created: Bool
    var appended: [AppendedEvent] = []
    /// `value` as the API's JSON, when the write encoded it for its event (with the encoding
    /// the service handed in): the response is then sent as it is, not encoded again.
    var json: String?
}

/// One event a write appended to one user's stream.
struct AppendedEvent: Sendable, Equatable {
    var userId: Int64
    var event: StoredEvent
}

extension [AppendedEvent] {
    /// The users whose streams these events are in, each once, ascending.
    var userIds: [Int64] { Set(map(\.userId)).sorted() }
}

/// One stored event, its data already encoded as JSON.
struct StoredEvent: Sendable, Equatable {
    var seq: Int64
    var type: String
    var createdAt: Timestamp
    var json: String
}
