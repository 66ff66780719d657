import Foundation

/// The JSON stored as an event's `data`, the same for every storage, and formatted as HTTP
/// responses are (`JSONResponse.encoder`), so a write's response can reuse it.
enum StoredEventJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONResponse.encoder().encode(value), as: UTF8.self)
    }
}
