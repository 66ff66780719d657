/// A failure of the database rather than of the request. Storage knows no HTTP: the one
/// place that turns these into API errors is `APIError.init(_: StorageError)`.
enum StorageError: Error, Sendable, Equatable {
    /// The database cannot serve right now (unreachable, full disk, failing I/O, damaged
    /// file, locked past the busy timeout); the request may be retried with the same ids.
    case unavailable(cause: String)
    /// A value the database cannot store (PostgreSQL refuses U+0000 in text).
    case unstorableText
    /// A row that the schema guarantees is missing (a bug or a damaged database).
    case inconsistent(String)
}
