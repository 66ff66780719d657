import ChirpModels
import Foundation

/// The bytes an envelope's signature covers: the canonical JSON of the envelope without
/// `signature` (keys sorted by code point, no whitespace, `keys` in the envelope's order, `v` an
/// integer), a newline, the conversation id, a newline and the `clientMessageId`.
///
/// Written by hand so that it cannot drift with a JSON encoder: strings escape `"`, `\` and the
/// control characters as JavaScript's `JSON.stringify` does (`\b \t \n \f \r`, otherwise
/// `\u00xx` in lowercase hex), and nothing else.
public enum CanonicalEnvelopeJSON {
    /// The canonical JSON of `envelope` without its signature.
    public static func json(_ envelope: Envelope) -> String {
        var out = "{\"ciphertext\":"
        appendString(envelope.ciphertext, to: &out)
        out += ",\"commitment\":"
        appendString(envelope.commitment, to: &out)
        out += ",\"keys\":["
        for (index, key) in envelope.keys.enumerated() {
            if index > 0 { out += "," }
            out += "{\"device\":"
            appendString(key.device, to: &out)
            out += ",\"enc\":"
            appendString(key.enc, to: &out)
            out += ",\"wrappedKey\":"
            appendString(key.wrappedKey, to: &out)
            out += "}"
        }
        out += "],\"nonce\":"
        appendString(envelope.nonce, to: &out)
        out += ",\"senderDevice\":"
        appendString(envelope.senderDevice, to: &out)
        out += ",\"v\":\(envelope.v)}"
        return out
    }

    /// The UTF-8 bytes the sender device signs for `envelope` in conversation `conversationId`.
    public static func signedBytes(_ envelope: Envelope, conversationId: String, clientMessageId: String) -> Data {
        Data((json(envelope) + "\n" + conversationId + "\n" + clientMessageId).utf8)
    }

    private static func appendString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
