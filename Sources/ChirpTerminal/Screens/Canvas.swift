/// A frame being drawn for one state: the theme, the size, and helpers the screens share.
struct Canvas {
    var frame: Frame
    let theme: Theme

    init(width: Int, height: Int, theme: Theme) {
        frame = Frame(width: width, height: height, fill: theme.base)
        self.theme = theme
    }

    var width: Int { frame.width }
    var height: Int { frame.height }

    mutating func text(_ text: String, x: Int, y: Int, style: CellStyle? = nil, maxX: Int? = nil) {
        frame.draw(text, x: x, y: y, style: style ?? theme.base, maxX: maxX)
    }

    /// A row filled with `style`, with `left` and `right` texts.
    /// Draws `items` as a list in `rows`, scrolled to keep `selected` in view: each row filled
    /// with the selection's style or the base one, its marker (` ▸ ` or blanks) drawn, then
    /// `row(&canvas, item, y, x after the marker, selected, the row's style)`.
    mutating func list<Item>(
        _ items: [Item], selected: Int?, in rows: Range<Int>,
        _ row: (inout Canvas, Item, Int, Int, Bool, CellStyle) -> Void
    ) {
        let first = max(0, (selected ?? 0) - rows.count + 1)
        for (offset, item) in items.dropFirst(first).prefix(rows.count).enumerated() {
            let y = rows.lowerBound + offset
            let isSelected = first + offset == selected
            let base = isSelected ? theme.selection : theme.base
            frame.fill(row: y, style: base)
            let x = frame.draw(isSelected ? " ▸ " : "   ", x: 0, y: y, style: base)
            row(&self, item, y, x, isSelected, base)
        }
    }

    mutating func bar(y: Int, left: String, right: String = "", style: CellStyle) {
        frame.fill(row: y, style: style)
        let rightWidth = TextWidth.of(right)
        frame.draw(left, x: 0, y: y, style: style, maxX: max(width - rightWidth - 1, 0))
        frame.draw(right, x: max(width - rightWidth, 0), y: y, style: style)
    }

    /// Text broken into lines of at most `width` columns, at spaces where possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = String(word)
                let wordWidth = TextWidth.of(word)
                if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while TextWidth.of(word) > width {
                    let head = TextWidth.prefix(word, fitting: width)
                    lines.append(head)
                    word.removeFirst(head.count)
                }
                line = word
                lineWidth = TextWidth.of(word)
            }
            lines.append(line)
        }
        return lines
    }

    /// `HH:MM` of an RFC 3339 time (UTC).
    static func clock(_ rfc3339: String) -> String {
        let characters = Array(rfc3339)
        guard characters.count >= 16 else { return rfc3339 }
        return String(characters[11..<16])
    }
}
