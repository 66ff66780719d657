import Foundation

/// The words a message is found by, the same for both storages and for queries: the text
/// folded to lower case without accents (`É` → `e`, `ß` → `ss`), cut at every character that is
/// neither a letter nor a digit. Both storages index these words rather than run a tokenizer of
/// their own, so a query finds the same messages on SQLite and PostgreSQL.
enum SearchTerms {
    /// The distinct words of `text`, in order of first appearance.
    static func words(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var seen = Set<String>()
        var current = String.UnicodeScalarView()
        func flush() {
            guard !current.isEmpty else { return }
            let word = String(current)
            if seen.insert(word).inserted { words.append(word) }
            current = String.UnicodeScalarView()
        }
        for scalar in folded.unicodeScalars {
            if isWordScalar(scalar) { current.append(scalar) } else { flush() }
        }
        flush()
        return words
    }

    /// `words` for ASCII text (most messages, on the send path): bytes lower-cased and cut,
    /// without Foundation.
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var seen = Set<String>()
        var current: [UInt8] = []
        current.reserveCapacity(16)
        func flush() {
            guard !current.isEmpty else { return }
            let word = String(decoding: current, as: UTF8.self)
            if seen.insert(word).inserted { words.append(word) }
            current.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            default: flush()
            }
        }
        flush()
        return words
    }

    /// The words of `text` as one space-separated string (what the index stores).
    static func indexed(_ text: String) -> String {
        words(text).joined(separator: " ")
    }

    /// Letters and digits (and private use); combining marks left after folding count as
    /// separators. SQLite's index takes these words as they are (its `ascii` tokenizer never
    /// cuts a non-ASCII character), so this function alone says what a word is.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }
}
