import Foundation

/// Turns columns back into a record: the inverse of `ColumnEncoder`.
enum ColumnDecoder {
    static func decode<R: Decodable>(_ type: R.Type, from columns: [String: StoredValue]) throws -> R {
        do {
            return try R(from: RowDecoder(columns: columns))
        } catch {
            throw PersistenceError.coding("\(R.self): \(error)")
        }
    }

    static func value<T: Decodable>(_ type: T.Type, from stored: StoredValue, path: [any CodingKey]) throws -> T {
        func mismatch() -> DecodingError {
            DecodingError.typeMismatch(T.self, .init(codingPath: path, debugDescription: "stored \(stored)"))
        }
        func integer() throws -> Int64 {
            switch stored {
            case .integer(let value): return value
            case .real(let value) where value.rounded() == value: return Int64(value)
            default: throw mismatch()
            }
        }
        func real() throws -> Double {
            switch stored {
            case .integer(let value): return Double(value)
            case .real(let value): return value
            default: throw mismatch()
            }
        }
        func text() throws -> String {
            guard case .text(let value) = stored else { throw mismatch() }
            return value
        }
        switch T.self {
        case is String.Type: return try text() as! T
        case is Bool.Type: return (try integer() != 0) as! T
        case is Int.Type: return Int(try integer()) as! T
        case is Int64.Type: return try integer() as! T
        case is Int32.Type: return Int32(try integer()) as! T
        case is Int16.Type: return Int16(try integer()) as! T
        case is Int8.Type: return Int8(try integer()) as! T
        case is UInt8.Type: return UInt8(try integer()) as! T
        case is UInt16.Type: return UInt16(try integer()) as! T
        case is UInt32.Type: return UInt32(try integer()) as! T
        case is Double.Type: return try real() as! T
        case is Float.Type: return Float(try real()) as! T
        case is Date.Type: return Date(timeIntervalSince1970: try real()) as! T
        case is Data.Type:
            guard case .blob(let value) = stored else { throw mismatch() }
            return value as! T
        case is UUID.Type:
            guard let uuid = UUID(uuidString: try text()) else { throw mismatch() }
            return uuid as! T
        case is URL.Type:
            guard let url = URL(string: try text()) else { throw mismatch() }
            return url as! T
        default:
            if let value = try? T(from: ScalarDecoder(stored: stored, codingPath: path)) {
                return value
            }
            return try JSONDecoder().decode(T.self, from: Data(try text().utf8))
        }
    }
}

private struct RowDecoder: Decoder {
    let columns: [String: StoredValue]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowDecodingContainer<Key>(columns: columns))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a row is keyed"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "a row is keyed"))
    }
}

private struct RowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let columns: [String: StoredValue]
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { columns.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { columns[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { (columns[key.stringValue] ?? .null) == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let stored = columns[key.stringValue], stored != .null else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "column is missing or NULL"))
        }
        return try ColumnDecoder.value(T.self, from: stored, path: codingPath + [key])
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are not supported"))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are not supported"))
    }
    func superDecoder() throws -> any Decoder {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: codingPath, debugDescription: "superDecoder is not supported"))
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }
}

/// Decodes raw-value enums and wrappers from one stored scalar; refuses containers.
private struct ScalarDecoder: Decoder, SingleValueDecodingContainer {
    let stored: StoredValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "not a scalar"))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "not a scalar"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
    func decodeNil() -> Bool { stored == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ColumnDecoder.value(T.self, from: stored, path: codingPath)
    }
}
