/// JSON text written as UTF-8 bytes into one array of the size asked for, then made a string
/// once: a message's JSON is built inside the send's write transaction, where appending to a
/// `String` piece by piece cost about 350 instructions a piece
/// (`scripts/count-send-instructions`).
struct JSONTextWriter {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Text that is JSON already: punctuation, keys, literals.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text that is JSON already: a number, or JSON made elsewhere.
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped, as
    /// Foundation's encoder escapes them (`/` and non-ASCII as they are).
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { escape(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// An object's key (written as JSON, with its punctuation: `#","id":"#`) and its string
    /// value, or `null`.
    mutating func member(_ key: StaticString, _ value: String?) {
        raw(key)
        string(value)
    }

    /// `value` as a JSON string, or `null`.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case ..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            raw("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        default:
            bytes.append(byte)
        }
    }

    /// The JSON written.
    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
