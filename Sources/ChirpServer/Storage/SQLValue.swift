import ChirpModels

/// A value bound to a statement's parameter, as both engines take it.
enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case boolean(Bool)
    /// A list of ids, for `SQLDialect.isAny`.
    case integers([Int64])
    /// Bytes (a blob, PostgreSQL's `bytea`).
    case bytes([UInt8])
    case null
}

/// A Swift value that binds to a statement's parameter.
protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable {
    var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension String: SQLBindable {
    var sqlValue: SQLValue { .text(self) }
}

extension Bool: SQLBindable {
    var sqlValue: SQLValue { .boolean(self) }
}

extension Timestamp: SQLBindable {
    /// Times are stored as milliseconds since 1970.
    var sqlValue: SQLValue { .integer(millisecondsSince1970) }
}

/// Ids bound as one parameter, for `SQLDialect.isAny`.
struct SQLIdList: SQLBindable {
    var ids: [Int64]
    init(_ ids: [Int64]) { self.ids = ids }
    var sqlValue: SQLValue { .integers(ids) }
}

/// Bytes bound as a blob (PostgreSQL's `bytea`).
struct SQLBlob: SQLBindable {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var sqlValue: SQLValue { .bytes(bytes) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
