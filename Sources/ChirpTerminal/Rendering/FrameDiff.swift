/// The bytes that turn what the terminal shows (`old`) into `new`: cursor moves and styled
/// runs for the cells that changed, nothing for the rest. Without an old frame (first draw,
/// resize) everything is written after a clear.
public enum FrameDiff {
    public static func ansi(from old: Frame?, to new: Frame) -> String {
        var out = ""
        let full = old == nil || old!.width != new.width || old!.height != new.height
        if full { out += "\u{1B}[0m\u{1B}[2J" }
        var currentStyle: CellStyle?
        for y in 0..<new.height {
            var x = 0
            while x < new.width {
                let cell = new[x, y]
                if !full, old![x, y] == cell {
                    x += 1
                    continue
                }
                // Start of a changed run: move there (the right half of a wide character is
                // written by its left half).
                var start = x
                if cell.text.isEmpty, start > 0 { start -= 1 }
                out += "\u{1B}[\(y + 1);\(start + 1)H"
                var column = start
                while column < new.width {
                    let next = new[column, y]
                    if column > x, !full, old![column, y] == next { break }
                    if !next.text.isEmpty {
                        if currentStyle != next.style {
                            out += next.style.sgr
                            currentStyle = next.style
                        }
                        out += next.text
                    }
                    column += 1
                }
                x = column
            }
        }
        out += "\u{1B}[0m"
        return out
    }
}
