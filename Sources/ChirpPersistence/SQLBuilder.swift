internal import GRDB

/// SQL text and arguments for a `RecordQuery`, and conversions between `StoredValue` and GRDB.
enum SQLBuilder {
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func databaseValue(_ value: StoredValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        }
    }

    static func storedValue(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: .null
        case .int64(let value): .integer(value)
        case .double(let value): .real(value)
        case .string(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }

    static func storedRow(_ row: Row) -> [String: StoredValue] {
        var columns: [String: StoredValue] = [:]
        for (name, value) in row { columns[name] = storedValue(value) }
        return columns
    }

    /// `WHERE …` (or empty) and its arguments.
    static func whereClause(_ query: RecordQuery) -> (String, [DatabaseValue]) {
        var parts: [String] = []
        var arguments: [DatabaseValue] = []
        for filter in query.filters {
            switch filter {
            case .compare(let column, let comparison, let value):
                parts.append("\(quote(column)) \(comparison.rawValue) ?")
                arguments.append(databaseValue(value))
            case .isIn(let column, let values):
                if values.isEmpty {
                    parts.append("0")
                } else {
                    parts.append(
                        "\(quote(column)) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
                    arguments += values.map(databaseValue)
                }
            case .isNull(let column):
                parts.append("\(quote(column)) IS NULL")
            }
        }
        return (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "), arguments)
    }

    /// `SELECT * FROM table WHERE … ORDER BY … LIMIT …`.
    static func select(_ query: RecordQuery, table: String) -> (String, [DatabaseValue]) {
        let (whereSQL, arguments) = whereClause(query)
        let order = (query.ordering.map { "\(quote($0.column)) \($0.ascending ? "ASC" : "DESC")" } + ["\"id\" ASC"])
            .joined(separator: ", ")
        let limit = query.limit.map { " LIMIT \($0)" } ?? ""
        return ("SELECT * FROM \(quote(table))\(whereSQL) ORDER BY \(order)\(limit)", arguments)
    }
}
