/// A terminal color: the 16 basic ones, or none (the terminal's default).
public enum TerminalColor: Int, Sendable, Hashable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
    case brightBlack = 8, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
}

/// How a cell looks.
public struct CellStyle: Sendable, Hashable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false

    /// Creates a style; everything off by default.
    public init(
        foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false, dim: Bool = false,
        underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    /// The terminal's default look.
    public static let plain = CellStyle()

    /// The SGR escape sequence that sets this style from a reset.
    var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if let foreground {
            codes.append(foreground.rawValue < 8 ? "\(30 + foreground.rawValue)" : "\(90 + foreground.rawValue - 8)")
        }
        if let background {
            codes.append(background.rawValue < 8 ? "\(40 + background.rawValue)" : "\(100 + background.rawValue - 8)")
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
