/// A plain value type that a `Repository` stores as one row of `tableName`.
///
/// Properties become columns under their coding keys; `id` is the primary key. Strings,
/// integers, doubles, bools, `Date` (seconds since 1970), `Data`, `UUID`, `URL` and
/// string/integer-backed enums are stored as such; any other nested value is stored as JSON
/// text.
///
/// ```swift
/// struct Note: StoredRecord {
///     static let tableName = "notes"
///     var id: String
///     var text: String
///     var updatedAt: Int64
/// }
/// ```
public protocol StoredRecord: Codable, Sendable, Equatable, Identifiable where ID: Codable & Sendable & Hashable {
    static var tableName: String { get }
}
