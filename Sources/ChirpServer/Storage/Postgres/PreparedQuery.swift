import PostgresNIO

/// A statement that PostgreSQL parses and plans once per connection instead of on every run:
/// the hot statements (the session lookup of every request, the send batch's statements).
/// Each conforming type names one statement; postgres-nio prepares it under that type's name
/// the first time a connection runs it and reuses it afterwards.
protocol PreparedSQL {
    /// The statement, with `$1`, `$2`… for its parameters.
    static var sql: String { get }
}

/// One run of the prepared statement `Statement` with these parameters.
struct PreparedQuery<Statement: PreparedSQL>: PostgresPreparedStatement {
    typealias Row = PostgresRandomAccessRow

    static var name: String { "chirp." + String(describing: Statement.self) }
    static var sql: String { Statement.sql }

    let bindings: PostgresBindings

    init(_ statement: Statement.Type, _ bindings: PostgresBindings) {
        self.bindings = bindings
    }

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
}
