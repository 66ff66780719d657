import Foundation

/// Turns a record into columns (`[column: StoredValue]`): top-level properties become columns,
/// scalars are stored natively and anything nested as JSON text. Both repository
/// implementations use it, so they store exactly the same values.
enum ColumnEncoder {
    static func encode<R: Encodable>(_ record: R) throws -> [String: StoredValue] {
        let encoder = RowEncoder()
        do {
            try record.encode(to: encoder)
        } catch {
            throw PersistenceError.coding("\(R.self): \(error)")
        }
        return encoder.storage.columns
    }

    /// The stored form of one value: native for scalars, JSON text for the rest.
    static func value<T: Encodable>(_ value: T) throws -> StoredValue {
        switch value {
        case let value as String: return .text(value)
        case let value as Bool: return .integer(value ? 1 : 0)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Int32: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Int8: return .integer(Int64(value))
        case let value as UInt8: return .integer(Int64(value))
        case let value as UInt16: return .integer(Int64(value))
        case let value as UInt32: return .integer(Int64(value))
        case let value as Double: return .real(value)
        case let value as Float: return .real(Double(value))
        case let value as Date: return .real(value.timeIntervalSince1970)
        case let value as Data: return .blob(value)
        case let value as UUID: return .text(value.uuidString)
        case let value as URL: return .text(value.absoluteString)
        default:
            let probe = SingleValueProbe()
            if (try? value.encode(to: probe)) != nil, let scalar = probe.result {
                return scalar
            }
            return .text(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
        }
    }
}

private final class RowStorage {
    var columns: [String: StoredValue] = [:]
}

/// The encoder handed to a record: only a keyed container at the top level.
private final class RowEncoder: Encoder {
    let storage = RowStorage()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowContainer<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("a StoredRecord must encode as a keyed container (a struct with properties)")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fatalError("a StoredRecord must encode as a keyed container (a struct with properties)")
    }
}

private struct RowContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: RowStorage
    var codingPath: [any CodingKey] = []

    mutating func encodeNil(forKey key: Key) throws { storage.columns[key.stringValue] = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.columns[key.stringValue] = try ColumnEncoder.value(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        fatalError("nested containers are not supported; give the property its own Codable type")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        fatalError("nested containers are not supported; give the property its own Codable type")
    }
    mutating func superEncoder() -> any Encoder { fatalError("superEncoder is not supported") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("superEncoder is not supported") }
}

/// Finds out whether a value encodes as one scalar (raw-value enums, wrappers); it refuses
/// containers, and the caller falls back to JSON.
private final class SingleValueProbe: Encoder, SingleValueEncodingContainer {
    struct NotScalar: Error {}
    var result: StoredValue?
    var failed = false
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        failed = true
        return KeyedEncodingContainer(DiscardingContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failed = true
        return DiscardingUnkeyed()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { result = .null }
    func encode<T: Encodable>(_ value: T) throws {
        guard !failed else { throw NotScalar() }
        let stored = try ColumnEncoder.value(value)
        result = stored
    }
}

private struct DiscardingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] = []
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { DiscardingUnkeyed() }
    mutating func superEncoder() -> any Encoder { SingleValueProbe() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueProbe() }
}

private struct DiscardingUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] = []
    var count = 0
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(DiscardingContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyed() }
    mutating func superEncoder() -> any Encoder { SingleValueProbe() }
}
