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

    /// The clause that locks the rows a `SELECT` reads and skips those another transaction
    /// holds (a sweep that runs beside others on many instances; none in SQLite).
    var forUpdateSkipLocked: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE SKIP LOCKED"
        }
    }

    /// The clause that keeps the rows a `SELECT` reads from changing until the transaction
    /// ends, while letting others read them (none in SQLite, as `forUpdate`).
    var forShare: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR SHARE"
        }
    }

    /// The larger of two values (SQLite's two-argument `MAX`, PostgreSQL's `GREATEST`).
    func greatest(_ a: String, _ b: String) -> String {
        switch self {
        case .sqlite: "MAX(\(a), \(b))"
        case .postgres: "GREATEST(\(a), \(b))"
        }
    }

    /// One row, `bytes`: the size of the database's files.
    var databaseSize: String {
        switch self {
        case .sqlite: "SELECT p.page_count * s.page_size AS bytes FROM pragma_page_count() p, pragma_page_size() s"
        case .postgres: "SELECT pg_database_size(current_database()) AS bytes"
        }
    }
}
