/// Which records to read, watch, count or delete: filters (all must hold), an order and a limit,
/// expressed on column names so every `Repository` implementation evaluates it the same way.
/// Compare a column with values of its own kind (text with text, numbers with numbers): SQLite
/// may convert a mismatched value by the column's declared type, the in-memory store does not.
///
/// ```swift
/// let recent = RecordQuery()
///     .filter("conversation", .equal, "bob")
///     .filter("createdAt", .greater, .integer(since))
///     .order(by: "createdAt", ascending: false)
///     .limit(50)
/// ```
public struct RecordQuery: Sendable, Hashable {
    /// How a column is compared with a value. Comparisons with `null` are false, as in SQL.
    public enum Comparison: String, Sendable, Hashable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// One condition on a column.
    public enum Filter: Sendable, Hashable {
        case compare(column: String, Comparison, StoredValue)
        case isIn(column: String, [StoredValue])
        case isNull(column: String)
    }

    /// One sort key.
    public struct Ordering: Sendable, Hashable {
        /// The column sorted on.
        public var column: String
        /// Smallest first when true.
        public var ascending: Bool
    }

    /// Conditions that must all hold.
    public var filters: [Filter] = []
    /// Sort keys, most significant first.
    public var ordering: [Ordering] = []
    /// At most this many records; `nil` for all.
    public var limit: Int?

    /// A query for every record.
    public init() {}

    /// Every record.
    public static let all = RecordQuery()

    /// Keeps records whose column compares so with the value.
    public func filter(_ column: String, _ comparison: Comparison, _ value: StoredValue) -> RecordQuery {
        var copy = self
        copy.filters.append(.compare(column: column, comparison, value))
        return copy
    }

    /// Keeps records whose column equals one of the values.
    public func filter(_ column: String, in values: [StoredValue]) -> RecordQuery {
        var copy = self
        copy.filters.append(.isIn(column: column, values))
        return copy
    }

    /// Keeps records whose column is null (or absent).
    public func filterNull(_ column: String) -> RecordQuery {
        var copy = self
        copy.filters.append(.isNull(column: column))
        return copy
    }

    /// Adds a sort key; earlier keys take precedence. Ties keep `id` order.
    public func order(by column: String, ascending: Bool = true) -> RecordQuery {
        var copy = self
        copy.ordering.append(Ordering(column: column, ascending: ascending))
        return copy
    }

    /// Returns at most `count` records.
    public func limit(_ count: Int) -> RecordQuery {
        var copy = self
        copy.limit = max(0, count)
        return copy
    }

    /// Whether a row (column → value) satisfies every filter.
    func matches(_ row: [String: StoredValue]) -> Bool {
        filters.allSatisfy { filter in
            switch filter {
            case .isNull(let column):
                return (row[column] ?? .null) == .null
            case .isIn(let column, let values):
                let value = row[column] ?? .null
                return value != .null && values.contains { $0.sqlEquals(value) }
            case .compare(let column, let comparison, let target):
                let value = row[column] ?? .null
                guard value != .null, target != .null else { return false }
                switch comparison {
                case .equal: return value.sqlEquals(target)
                case .notEqual: return !value.sqlEquals(target)
                case .less: return value < target
                case .lessOrEqual: return value < target || value.sqlEquals(target)
                case .greater: return target < value
                case .greaterOrEqual: return target < value || value.sqlEquals(target)
                }
            }
        }
    }

    /// Sorts rows by the ordering, then by `id`.
    func sort(_ rows: [[String: StoredValue]]) -> [[String: StoredValue]] {
        rows.sorted { a, b in
            for key in ordering {
                let x = a[key.column] ?? .null
                let y = b[key.column] ?? .null
                if x.sqlEquals(y) || x == y { continue }
                return key.ascending ? x < y : y < x
            }
            return (a["id"] ?? .null) < (b["id"] ?? .null)
        }
    }
}
