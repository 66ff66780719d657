import GRDB
import GRDBSQLite

/// A GRDB cursor that reads each row straight from SQLite's columns (`StatementColumns`),
/// for the statements every send runs.
///
/// GRDB's `Row.fetchOne` builds, for every query, a map of the statement's lowercased column
/// names (for `row["name"]`) and then copies the row's values: about 14,000 instructions for
/// the send's 9 facts, before a value is read (`scripts/count-send-instructions`). A send's
/// rows are read by position, so this cursor skips both. Stepping, errors and the reset are
/// still GRDB's (`DatabaseCursor`); the next use of the statement resets it.
final class ColumnCursor<Element>: DatabaseCursor {
    let _statement: Statement
    var _isDone = false
    private let read: (StatementColumns) throws -> Element

    /// Binds `arguments` (checked against the statement, as `Row.fetchOne` does) and reads
    /// each row with `read`.
    init(_ statement: Statement, arguments: StatementArguments, read: @escaping (StatementColumns) throws -> Element)
        throws
    {
        _statement = statement
        self.read = read
        try statement.setArguments(arguments)
    }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try read(StatementColumns(statement: sqliteStatement))
    }

    /// The only row of a statement that returns at most one, read with `read`; nil when it
    /// returns none. The statement is stepped to its end, so it holds no read open after.
    static func only(
        _ statement: Statement, arguments: StatementArguments, read: @escaping (StatementColumns) throws -> Element
    ) throws -> Element? {
        let cursor = try ColumnCursor(statement, arguments: arguments, read: read)
        let first = try cursor.next()
        while try cursor.next() != nil {}
        return first
    }
}

/// The current row of a stepped SQLite statement, read by column position. Valid only inside
/// the `ColumnCursor` read that hands it out.
struct StatementColumns {
    let statement: SQLiteStatement

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    /// An integer column (0 for NULL).
    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    /// A boolean column, as SQLite stores one (0 or 1; NULL reads as false).
    func bool(_ column: Int32) -> Bool {
        sqlite3_column_int64(statement, column) != 0
    }

    /// A boolean column that may be NULL.
    func optionalBool(_ column: Int32) -> Bool? {
        isNull(column) ? nil : bool(column)
    }

    /// A text column (empty for NULL).
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
