/// The safety number of the open direct conversation: 60 digits in three rows of four groups,
/// and how to compare them.
enum SafetyNumberScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        guard let number = state.safetyNumber else { return }
        canvas.text("🔒 Safety number with \(number.peer)", x: 1, y: rows.lowerBound, style: theme.title)
        let groups = number.digits.split(separator: " ").map(String.init)
        var y = rows.lowerBound + 2
        for start in stride(from: 0, to: groups.count, by: 4) where y < rows.upperBound {
            canvas.text(
                groups[start..<min(start + 4, groups.count)].joined(separator: "  "), x: 3, y: y, style: theme.accent)
            y += 1
        }
        let explanation =
            "Compare these digits with the ones \(number.peer) sees (chirp safety-number \(state.username ?? "")), in "
            + "person or on a call. The same digits mean no one else's device reads your conversation. They change "
            + "when either of you adds or removes a device."
        y += 1
        for line in Canvas.wrap(explanation, width: canvas.width - 2) where y < rows.upperBound {
            canvas.text(line, x: 1, y: y, style: theme.muted, maxX: canvas.width - 1)
            y += 1
        }
    }
}
