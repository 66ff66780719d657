/// What SQLite and PostgreSQL spell differently, for the statements written once
/// (`StorageScope`). Everything else (placeholders as `$n`, `ON CONFLICT … DO`, `RETURNING`,
/// `TRUE`/`FALSE`, `EXISTS`, `COALESCE`) both engines read alike.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A condition that `column` is one of the integers bound to `parameter` (an
    /// `SQLValue.integers`): PostgreSQL's array against SQLite's JSON array.
    func isAny(_ column: String, of parameter: String) -> String {
        switch self {
        case .sqlite: "\(column) IN (SELECT value FROM json_each(\(parameter)))"
        case .postgres: "\(column) = ANY(\(parameter))"
        }
    }

    /// The clause that locks the rows a `SELECT` reads until the transaction ends (SQLite has
    /// one writer at a time and needs none).
    var forUpdate: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }
}
