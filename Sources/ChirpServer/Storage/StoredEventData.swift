/// How an appended event's rows keep its data (`StorageScope.appendEvents`).
enum StoredEventData: Sendable, Equatable {
    /// Each row holds the JSON.
    case copy
    /// The JSON is stored once (`event_payloads`) and every row names it: for data whose size
    /// grows with the audience (a group's Group, which lists every member).
    case shared
    /// The rows point at this message and hold no JSON: an event about a message
    /// (`message.created`, `message.updated`, `message.deleted`) is built from the message's
    /// row when a stream reads it (`EventSQL`), so an edit, unsend, take-down or account
    /// deletion changes that one row and no stored copy.
    case message(Int64)
}
