import PostgresNIO

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
