import Foundation

/// An editable text field (possibly multi-line) with a cursor at the end: typing appends (up to
/// `limit` characters), backspace removes the last character, Alt-Enter adds a line, Ctrl-U
/// clears.
public struct TextInput: Sendable, Equatable {
    public var text = ""
    /// The longest text allowed (in characters), if any.
    public var limit: Int?

    public init(text: String = "", limit: Int? = nil) {
        self.text = text
        self.limit = limit
    }

    /// Applies an editing key; returns whether it was one.
    public mutating func handle(_ key: Key, multiline: Bool = false) -> Bool {
        switch key {
        case .character(let character):
            // At the limit a key is taken but not added.
            if let limit, text.count >= limit { return true }
            text.append(character)
        case .newline where multiline:
            text.append("\n")
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .control("u"):
            text = ""
        default:
            return false
        }
        return true
    }

    /// The text without surrounding whitespace.
    public var trimmed: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
