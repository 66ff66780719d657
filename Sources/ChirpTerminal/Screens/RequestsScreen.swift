import Foundation

/// The message requests waiting for an answer: who wrote, how many unread, the last message.
enum RequestsScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Message requests", x: 1, y: rows.lowerBound, style: theme.title)
        guard !state.requests.isEmpty else {
            canvas.text(
                "No message requests. With \"everyone\" (chirp settings --message-requests everyone), people you do not follow",
                x: 1, y: rows.lowerBound + 2, style: theme.muted, maxX: canvas.width - 1)
            canvas.text(
                "can write to you: their first messages wait here.", x: 1, y: rows.lowerBound + 3, style: theme.muted,
                maxX: canvas.width - 1)
            return
        }
        canvas.list(state.requests, selected: state.selectedRequest, in: (rows.lowerBound + 2)..<rows.upperBound) {
            canvas, row, y, x, selected, base in
            var x = x
            if row.isGroup { x = canvas.frame.draw("👥", x: x, y: y, style: base) }
            x = canvas.frame.draw(row.shownName, x: x, y: y, style: selected ? base : theme.accent)
            if row.unreadCount > 0 {
                x = canvas.frame.draw(" (\(row.unreadCount))", x: x, y: y, style: selected ? base : theme.notice)
            }
            x = max(x + 2, 20)
            let preview = (row.lastSender + ": " + row.lastText).replacingOccurrences(of: "\n", with: " ")
            canvas.frame.draw(preview, x: x, y: y, style: selected ? base : theme.muted, maxX: canvas.width - 7)
            canvas.frame.draw(Canvas.clock(row.lastAt), x: canvas.width - 6, y: y, style: selected ? base : theme.muted)
        }
    }
}
