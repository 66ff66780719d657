import Foundation

/// One column value as the persistence layer stores it, with SQLite's types and ordering:
/// `null` < numbers (integers and reals compared by value) < text (UTF-8 bytes) < blobs.
public enum StoredValue: Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
    public init(nilLiteral: ()) { self = .null }

    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    private var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    public static func < (lhs: StoredValue, rhs: StoredValue) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.text(let a), .text(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.blob(let a), .blob(let b)): return a.lexicographicallyPrecedes(b)
        case (.null, .null): return false
        default: return lhs.number! < rhs.number!
        }
    }

    /// Equality as SQL compares: numbers by value (`1 == 1.0`).
    func sqlEquals(_ other: StoredValue) -> Bool {
        if let a = number, let b = other.number { return a == b }
        return self == other
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}
