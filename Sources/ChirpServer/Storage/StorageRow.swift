import ChirpModels

/// One row of a result, read by column name (the `AS` names the statements give), or by
/// position only where a statement has one column.
protocol StorageRow {
    /// Whether the row has a column of that name.
    func has(_ column: String) -> Bool
    /// Whether the column holds NULL; throws when the row has no such column.
    func isNull(_ column: String) throws -> Bool
    /// An integer column; throws when it is NULL or missing.
    func int64(_ column: String) throws -> Int64
    /// A text column; throws when it is NULL or missing.
    func text(_ column: String) throws -> String
    /// A boolean column (SQLite's 0 or 1); throws when it is NULL or missing.
    func bool(_ column: String) throws -> Bool
    /// The name of the column at `index`.
    func columnName(_ index: Int) throws -> String
}

extension StorageRow {
    /// The column's value as `T`: `let id: Int64 = try row("id")`.
    func callAsFunction<T: ColumnValue>(_ column: String, as type: T.Type = T.self) throws -> T {
        try T(self, column: column)
    }

    /// The column at `index`, for a statement whose columns have no names to give (one column).
    func callAsFunction<T: ColumnValue>(_ index: Int, as type: T.Type = T.self) throws -> T {
        try T(self, column: index)
    }
}

/// A type a column is read as.
protocol ColumnValue {
    init(_ row: some StorageRow, column: String) throws
}

extension ColumnValue {
    /// The column at `index`.
    init(_ row: some StorageRow, column index: Int) throws {
        try self.init(row, column: try row.columnName(index))
    }
}

extension Int64: ColumnValue {
    init(_ row: some StorageRow, column: String) throws { self = try row.int64(column) }
}

extension Int: ColumnValue {
    init(_ row: some StorageRow, column: String) throws { self = Int(try row.int64(column)) }
}

extension String: ColumnValue {
    init(_ row: some StorageRow, column: String) throws { self = try row.text(column) }
}

extension Bool: ColumnValue {
    init(_ row: some StorageRow, column: String) throws { self = try row.bool(column) }
}

extension Timestamp: ColumnValue {
    /// Milliseconds since 1970.
    init(_ row: some StorageRow, column: String) throws {
        self.init(millisecondsSince1970: try row.int64(column))
    }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    init(_ row: some StorageRow, column: String) throws {
        self = try row.isNull(column) ? nil : try Wrapped(row, column: column)
    }
}
