import Foundation

/// The API's JSON formatting (sorted keys, slashes unescaped), for responses and for the
/// data of stored events alike, so a write's response can reuse its event's JSON.
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as API JSON text (an event's data).
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
