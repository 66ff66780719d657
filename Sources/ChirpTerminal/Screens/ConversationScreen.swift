import ChirpClient
import ChirpModels

/// One conversation: the history (newest at the bottom, paging older on scroll-up), delivery
/// marks, who is typing, and the multi-line input.
enum ConversationScreen {
    static func mark(_ message: LocalMessage) -> String {
        // In a group, how many of the others read it.
        if message.group != nil, message.serverId != nil, message.readCount > 0 {
            return "✓✓ read by \(message.readCount)"
        }
        return switch message.state {
        case .pending: "… sending"
        case .sent: "✓"
        case .delivered: "✓✓"
        case .read: "✓✓ read"
        case .failed: "✗ failed: \(message.failure ?? "refused") · Ctrl-R retry"
        case .received: ""
        }
    }

    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        let width = canvas.width - 2
        // The input: up to three lines, at the bottom of the body.
        let draftLines = Canvas.wrap(state.draft.text, width: width - 2)
        let inputLines = min(max(draftLines.count, 1), 3)
        let inputTop = rows.upperBound - inputLines
        for offset in 0..<inputLines {
            canvas.frame.fill(row: inputTop + offset, style: theme.input)
            let line = Array(draftLines.suffix(inputLines))
            let text = line.indices.contains(offset) ? line[offset] : ""
            canvas.text(
                (offset == 0 ? "> " : "  ") + text + (offset == inputLines - 1 ? "▏" : ""), x: 1, y: inputTop + offset,
                style: theme.input)
        }
        // Over the input, bottom up: what the draft is for, the files going with it, transfers.
        var above: [(text: String, style: CellStyle)] = []
        for progress in state.transfers.suffix(2) {
            above.append(("\(progress.isUpload ? "↑" : "↓") \(progress.filename) \(progress.percent) %", theme.notice))
        }
        for file in state.attachments { above.append(("📎 " + file.summary, theme.accent)) }
        if let purpose = state.draftPurpose {
            let layout = MessageLayout(state: state, theme: theme, width: width)
            switch purpose {
            case .reply(let id): above.append(("↪ Replying to " + layout.quote(id) + "  · Esc cancel", theme.notice))
            case .edit: above.append(("✎ Editing your message · Enter save · Esc cancel", theme.notice))
            }
        }
        // A small window keeps the input, the typing line and a line of history.
        above = Array(above.suffix(max(rows.count - inputLines - 2, 0)))
        var y = inputTop - above.count
        for line in above {
            canvas.text(line.text, x: 1, y: y, style: line.style, maxX: canvas.width - 1)
            y += 1
        }
        let typingRow = inputTop - above.count - 1
        if let peer = state.peer, ConversationKey.isGroup(peer) {
            let typing = state.typingPeers.filter { $0.hasPrefix(peer.lowercased() + "/") }.map {
                String($0.dropFirst(peer.count + 1))
            }
            if !typing.isEmpty {
                canvas.text("\(typing.joined(separator: ", ")) typing…", x: 1, y: typingRow, style: theme.muted)
            }
        } else if let peer = state.peer, state.typingPeers.contains(peer.lowercased()) {
            canvas.text("\(peer) is typing…", x: 1, y: typingRow, style: theme.muted)
        }
        drawHistory(state, in: rows.lowerBound..<max(typingRow, rows.lowerBound), on: &canvas)
    }

    /// The history around the view: laid out from the message at its bottom (`bottomIndex`,
    /// or the selected message when that is below it) back only as far as the rows need, or
    /// from the selected message down when that is above it. Drawing costs what the screen
    /// shows, whatever the length of the history.
    private static func drawHistory(_ state: AppState, in historyRows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        let layout = MessageLayout(state: state, theme: theme, width: canvas.width - 2)
        let rows = historyRows.count
        let messages = state.messages
        var lines: [MessageLayout.Line] = []
        if messages.isEmpty {
            lines.append((state.busySince == nil ? "No messages yet: say hello." : "Loading…", theme.muted))
        }
        let selected = state.selectedMessage.flatMap { id in messages.lastIndex { $0.id == id } }
        var bottom = max(state.bottomIndex, selected ?? 0)
        var first = bottom + 1
        var topAligned = false
        while !messages.isEmpty, first > 0, lines.count < rows {
            first -= 1
            lines.insert(contentsOf: layout.lines(for: messages[first], selected: first == selected), at: 0)
        }
        if let selected, selected < first {
            // Selected above the view: it heads the view.
            lines = []
            bottom = selected - 1
            topAligned = true
        } else if first == 0, lines.count < rows {
            if state.hasOlderMessages { lines.insert(("↑ older messages: PgUp to load", theme.muted), at: 0) }
            topAligned = true
        }
        while topAligned, bottom + 1 < messages.count, lines.count < rows {
            bottom += 1
            lines += layout.lines(for: messages[bottom], selected: bottom == selected)
        }
        let shown = topAligned ? Array(lines.prefix(rows)) : Array(lines.suffix(rows))
        for (offset, line) in shown.enumerated() {
            let y = historyRows.lowerBound + offset
            if line.style == theme.selection { canvas.frame.fill(row: y, style: theme.selection) }
            canvas.text(
                line.text, x: line.text.hasPrefix("▸ ") ? 0 : 1, y: y, style: line.style, maxX: canvas.width - 1)
        }
    }
}
