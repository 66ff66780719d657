/// Writing a tweet, with the count to 280.
enum ComposeScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        let compose = state.compose
        canvas.text("New tweet", x: 1, y: rows.lowerBound, style: theme.title)
        let count = "\(compose.count)/280"
        canvas.text(
            count, x: canvas.width - TextWidth.of(count) - 1, y: rows.lowerBound,
            style: compose.count > 280 ? theme.error : theme.muted)
        let boxRows = (rows.lowerBound + 2)..<min(rows.lowerBound + 9, rows.upperBound - 2)
        let lines = Canvas.wrap(compose.input.text, width: canvas.width - 4)
        for (offset, y) in boxRows.enumerated() {
            canvas.frame.fill(row: y, from: 1, to: canvas.width - 1, style: theme.input)
            let index = max(0, lines.count - boxRows.count) + offset
            let isLast = index == lines.count - 1 || (lines.isEmpty && offset == 0)
            let text = lines.indices.contains(index) ? lines[index] : ""
            canvas.text(text + (isLast ? "▏" : ""), x: 2, y: y, style: theme.input, maxX: canvas.width - 1)
        }
        let statusY = boxRows.upperBound + 1
        if compose.isPosting {
            canvas.text("Posting…", x: 1, y: statusY, style: theme.muted)
        } else if let error = compose.error {
            canvas.text(error, x: 1, y: statusY, style: theme.error)
        }
    }
}
