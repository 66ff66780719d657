import ChirpModels

/// One screenful: a grid of cells, each holding one grapheme (or nothing, for the right half
/// of a wide character) and a style. Screens draw into a frame; the terminal writes only the
/// cells that differ from the last frame.
public struct Frame: Sendable, Equatable {
    /// One cell. `text` is empty for the second column of a two-column character.
    public struct Cell: Sendable, Hashable {
        public var text: String
        public var style: CellStyle
        public static let blank = Cell(text: " ", style: .plain)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    /// A blank frame.
    public init(width: Int, height: Int, fill: CellStyle = .plain) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(text: " ", style: fill), count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from column `x` of row `y`, clipped at `maxX` (default: the right edge);
    /// wide characters take two columns and are never split. Returns the column after the text.
    /// A control character or bidi override (what others wrote may hold any) is drawn as its
    /// escape (`TerminalText`, `\u{1B}`), never handed to the terminal; a tab is a space.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxX: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(maxX ?? width, width)
        var column = x
        for character in text {
            if character == "\n" || character == "\r" { break }
            if character != "\t", character.unicodeScalars.contains(where: TerminalText.isEscaped) {
                column = draw(TerminalText.escaped(String(character)), x: column, y: y, style: style, maxX: maxX)
                continue
            }
            let isTab = character == "\t"
            let glyph = isTab ? " " : String(character)
            let columns = isTab ? 1 : TextWidth.of(character)
            if columns == 0 {
                // Combining mark: joins the previous cell.
                if column > 0, column - 1 < width, column - 1 >= x { self[column - 1, y].text += glyph }
                continue
            }
            if column + columns > limit { break }
            if column >= 0 {
                self[column, y] = Cell(text: glyph, style: style)
                if columns == 2 { self[column + 1, y] = Cell(text: "", style: style) }
            }
            column += columns
        }
        return column
    }

    /// Paints a row (or part of it) with `style`, clearing its text.
    public mutating func fill(row y: Int, from x: Int = 0, to end: Int? = nil, style: CellStyle) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(end ?? width, width) { self[column, y] = Cell(text: " ", style: style) }
    }

    /// The frame as plain text, one line per row, trailing spaces trimmed (for tests and
    /// checked-in reference frames).
    public var text: String {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += self[x, y].text }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
