import ChirpModels

/// A `Message` as the API's JSON (keys sorted, as `APIJSON.encoder()` writes them), built
/// by hand: a send encodes one inside the write transaction (`MessageRules.encode`), where the writer is the one
/// thread every send waits for, and Foundation's encoder costs several times more.
enum MessageJSON {
    static func encode(_ message: Message) -> String {
        var out = #"{"clientMessageId":"#
        out.reserveCapacity(128 + message.text.utf8.count)
        appendString(message.clientMessageId, to: &out)
        out += #","createdAt":"#
        appendString(message.createdAt.rfc3339, to: &out)
        out += message.deleted ? #","deleted":true,"id":"# : #","deleted":false,"id":"#
        appendString(message.id, to: &out)
        out += #","readByRecipient":"#
        out += message.readByRecipient ? "true" : "false"
        out += #","recipient":"#
        appendString(message.recipient, to: &out)
        out += #","sender":"#
        appendString(message.sender, to: &out)
        out += #","text":"#
        appendString(message.text, to: &out)
        out += "}"
        return out
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        var plainStart = value.utf8.startIndex
        var index = plainStart
        let utf8 = value.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                out += value[plainStart..<index]
                switch byte {
                case UInt8(ascii: "\""): out += "\\\""
                case UInt8(ascii: "\\"): out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                default:
                    let hex = String(byte, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        out += value[plainStart..<utf8.endIndex]
        out += "\""
    }
}
