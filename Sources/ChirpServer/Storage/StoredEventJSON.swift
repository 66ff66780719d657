import Foundation

/// The JSON stored as an event's `data`, the same for every storage.
enum StoredEventJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
