import Foundation

/// The words a message is found by, the same for both storages and for queries: the text
/// folded to lower case without accents (`É` → `e`, `ß` → `ss`), cut at every character that is
/// neither a letter nor a digit. Both storages index these words rather than run a tokenizer of
/// their own, so a query finds the same messages on SQLite and PostgreSQL.
enum SearchTerms {
    /// The most distinct words a search may hold (`MessageActionService.search`).
    static let maxQueryWords = 16

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
    /// without Foundation. A message has few words, so a repeat is found by comparing with the
    /// words so far until there are `setFrom` of them, and by a set after: the set alone, built
    /// for every message, cost more than the rest of the cutting.
    private static func asciiWords(_ text: String) -> [String] {
        var bytes = Array(text.utf8)
        var words: [String] = []
        var seen: Set<String> = []
        var start = -1
        for index in bytes.indices {
            let byte = bytes[index]
            let isWord: Bool
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): isWord = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes[index] = byte + 32
                isWord = true
            default: isWord = false
            }
            if isWord {
                if start < 0 { start = index }
            } else if start >= 0 {
                add(String(decoding: bytes[start..<index], as: UTF8.self), to: &words, seen: &seen)
                start = -1
            }
        }
        if start >= 0 { add(String(decoding: bytes[start...], as: UTF8.self), to: &words, seen: &seen) }
        return words
    }

    /// Words up to which a repeat is found by comparison rather than by a set.
    private static let setFrom = 16

    private static func add(_ word: String, to words: inout [String], seen: inout Set<String>) {
        if words.count < setFrom {
            guard !words.contains(word) else { return }
            words.append(word)
            if words.count == setFrom { seen = Set(words) }
        } else if seen.insert(word).inserted {
            words.append(word)
        }
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
