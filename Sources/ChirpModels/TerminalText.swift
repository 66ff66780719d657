/// Text someone else wrote (a message, a name, a client's log entry, a report's note) made
/// safe to print on a terminal: every character a terminal would act on instead of show is
/// written as a Swift escape, `\u{HEX}` (ESC is `\u{1B}`, a line feed `\u{A}`).
///
/// Those are the C0 controls (line feed, carriage return and tab included: one printed line
/// stays one line, so text cannot forge the lines after it), DEL, the C1 controls, the line and
/// paragraph separators, and the bidi embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069), which reorder what the reader sees. Everything else, emoji and accents
/// included, is left as it is. The result holds none of those characters, so escaping it again
/// changes nothing: a line may be escaped where it is built and again where it is printed.
///
/// JSON output needs none of this: its encoder escapes control characters itself.
public enum TerminalText {
    /// `text` with every character a terminal would act on written as `\u{HEX}`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        return write(text, quoting: false)
    }

    /// `text` escaped and between double quotes, its own quotes and backslashes escaped
    /// (`\"`, `\\`): one field of a line, where it ends cannot be faked.
    public static func quoted(_ text: String) -> String {
        "\"" + write(text, quoting: true) + "\""
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides and isolates
        default: false
        }
    }

    /// `text` with its escaped characters as `\u{HEX}`, and with `quoting` its backslashes and
    /// quotes after a backslash.
    private static func write(_ text: String, quoting: Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                if quoting, scalar == "\\" || scalar == "\"" { result.append("\\") }
                result.append(scalar)
            }
        }
        return String(result)
    }
}
