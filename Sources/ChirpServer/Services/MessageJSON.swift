import ChirpModels

/// A `Message` as the API's JSON (keys sorted, as `APIJSON.encoder()` writes them), built
/// by hand: a send encodes one inside the write transaction (`MessageRules.encode`), where the writer is the one
/// thread every send waits for, and Foundation's encoder costs several times more.
enum MessageJSON {
    static func encode(_ message: Message) -> String {
        var out = #"{"clientMessageId":"#
        out.reserveCapacity(200 + message.text.utf8.count)
        appendString(message.clientMessageId, to: &out)
        out += #","createdAt":"#
        appendString(message.createdAt.rfc3339, to: &out)
        out += message.deleted ? #","deleted":true,"editedAt":"# : #","deleted":false,"editedAt":"#
        if let editedAt = message.editedAt { appendString(editedAt.rfc3339, to: &out) } else { out += "null" }
        out += #","id":"#
        appendString(message.id, to: &out)
        out += #","media":["#
        for (index, media) in message.media.enumerated() {
            if index > 0 { out += "," }
            appendMedia(media, to: &out)
        }
        out += #"],"reactions":["#
        for (index, reaction) in message.reactions.enumerated() {
            if index > 0 { out += "," }
            out += #"{"count":"# + String(reaction.count) + #","emoji":"#
            appendString(reaction.emoji, to: &out)
            out += #","users":["#
            for (userIndex, user) in reaction.users.enumerated() {
                if userIndex > 0 { out += "," }
                appendString(user, to: &out)
            }
            out += "]}"
        }
        out += #"],"readByRecipient":"#
        out += message.readByRecipient ? "true" : "false"
        out += #","recipient":"#
        appendString(message.recipient, to: &out)
        if message.removedByOperators { out += #","removedByOperators":true"# }
        out += #","replyTo":"#
        if let replyTo = message.replyTo { appendString(replyTo, to: &out) } else { out += "null" }
        out += #","sender":"#
        appendString(message.sender, to: &out)
        out += #","text":"#
        appendString(message.text, to: &out)
        out += "}"
        return out
    }

    /// Appends a `Media` object, keys sorted.
    static func appendMedia(_ media: Media, to out: inout String) {
        out += #"{"clientMediaId":"#
        appendString(media.clientMediaId, to: &out)
        out += #","contentType":"#
        appendString(media.contentType, to: &out)
        out += #","createdAt":"#
        appendString(media.createdAt.rfc3339, to: &out)
        out += #","filename":"#
        if let filename = media.filename { appendString(filename, to: &out) } else { out += "null" }
        out += #","id":"#
        appendString(media.id, to: &out)
        out += #","sha256":"#
        appendString(media.sha256, to: &out)
        out += #","size":"# + String(media.size) + "}"
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped.
    /// A string with none of them (nearly every one) is appended whole: walking it through
    /// `String.UTF8View`'s indices cost about 2,000 instructions a string
    /// (`scripts/count-send-instructions`), and a message has six or more.
    static func appendString(_ value: String, to out: inout String) {
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain == true {
            out += "\""
            out += value
            out += "\""
            return
        }
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
