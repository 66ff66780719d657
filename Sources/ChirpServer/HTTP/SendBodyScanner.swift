import ChirpModels
import NIOCore

/// Reads a send's body (`SendMessageRequest`) straight from its bytes when it has the plain
/// form nearly every client sends: one object of the three known keys, each at most once,
/// whose strings hold no escape, no control character and only valid UTF-8 (`text` a string;
/// `replyTo` a string or null; `mediaIds` null or an array of strings), with JSON's
/// whitespace anywhere between. Anything else (an escape, an unknown key, a number, a
/// duplicate) gives nil, and the caller decodes with Foundation's `JSONDecoder` as before, so
/// every answer, error or not, is the decoder's.
///
/// Foundation's decoder cost a send about 50,000 instructions (`scripts/count-send-instructions`),
/// most of it generic machinery for three fields; this costs a few hundred plus the strings.
/// `SendBodyScannerTests` checks it against the decoder on many bodies.
enum SendBodyScanner {
    static func scan(_ buffer: ByteBuffer) -> SendMessageRequest? {
        buffer.withUnsafeReadableBytes { bytes in
            var reader = Reader(bytes: bytes)
            return reader.request()
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        mutating func request() -> SendMessageRequest? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var text: String?
            var mediaIds: [String]??
            var replyTo: String??
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    switch key {
                    case "text":
                        guard text == nil, let value = string() else { return nil }
                        text = value
                    case "replyTo":
                        guard replyTo == nil else { return nil }
                        if takeNull() {
                            replyTo = .some(nil)
                        } else if let value = string() {
                            replyTo = value
                        } else {
                            return nil
                        }
                    case "mediaIds":
                        guard mediaIds == nil else { return nil }
                        if takeNull() {
                            mediaIds = .some(nil)
                        } else if let values = strings() {
                            mediaIds = values
                        } else {
                            return nil
                        }
                    default:
                        return nil
                    }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipSpace()
            guard index == bytes.count, let text else { return nil }
            return SendMessageRequest(text: text, mediaIds: mediaIds ?? nil, replyTo: replyTo ?? nil)
        }

        /// `[` strings, comma-separated `]`.
        mutating func strings() -> [String]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var values: [String] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return values }
            repeat {
                skipSpace()
                guard let value = string() else { return nil }
                values.append(value)
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? values : nil
        }

        /// A string with no escape and no control character, as valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let value = String(
                        validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return value
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        mutating func takeNull() -> Bool {
            guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
