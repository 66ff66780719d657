/// A key press, decoded from the terminal's bytes.
public enum Key: Sendable, Hashable {
    case character(Character)
    case enter
    /// Alt-Enter or Ctrl-J: a new line inside a multi-line input.
    case newline
    case backspace, delete, tab, backTab, escape
    case up, down, left, right, pageUp, pageDown, home, end
    /// Ctrl plus a letter (lowercase), such as `.control("r")`.
    case control(Character)
}
