/// A statement run often enough to be prepared once per connection (the session lookup of
/// every request, a conversation's pages, the send batch's statements): each conforming type
/// names one statement. PostgreSQL parses and plans it once per connection under the type's
/// name (`PreparedQuery`); SQLite keeps every statement prepared in its connection's cache
/// anyway. Shared code runs one through `StorageScope.query(_:_:)`.
protocol PreparedSQL {
    /// The statement, with `$1`, `$2`… for its parameters.
    static var sql: String { get }
}
