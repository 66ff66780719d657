import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of every byte string of encrypted
/// conversations. Decoding is strict: no padding, no `+` or `/`, no whitespace, and only the
/// canonical spelling (unused trailing bits zero), so one byte string has one text.
///
/// (ChirpPush has its own lenient `Data` extension for Web Push; this one is a separate
/// namespace so that a module importing both sees no ambiguity.)
public enum Base64URL {
    /// The text of `bytes`, without padding.
    public static func encode(_ bytes: some DataProtocol) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(
            text.map { character -> Character in
                switch character {
                case "+": "-"
                case "/": "_"
                default: character
                }
            })
    }

    /// The bytes of `text`; nil when it is not canonical unpadded base64url.
    public static func decode(_ text: String) -> Data? {
        let alphabetOnly = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        guard alphabetOnly, text.utf8.count % 4 != 1 else { return nil }
        var standard = String(
            text.map { character -> Character in
                switch character {
                case "-": "+"
                case "_": "/"
                default: character
                }
            })
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        guard let bytes = Data(base64Encoded: standard), encode(bytes) == text else { return nil }
        return bytes
    }

    /// The bytes of `text` when they are exactly `count` long; nil otherwise.
    public static func decode(_ text: String, count: Int) -> Data? {
        guard let bytes = decode(text), bytes.count == count else { return nil }
        return bytes
    }
}
