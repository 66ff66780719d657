import ChirpClient

/// One conversation: the history (newest at the bottom, paging older on scroll-up), delivery
/// marks, who is typing, and the multi-line input.
enum ConversationScreen {
    static func mark(_ message: LocalMessage) -> String {
        switch message.state {
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
        let me = state.username?.lowercased() ?? ""
        let width = canvas.width - 2
        // The input: up to three lines, at the bottom of the body.
        let draftLines = Canvas.wrap(state.draft.text, width: width - 2)
        let inputLines = min(max(draftLines.count, 1), 3)
        let inputTop = rows.upperBound - inputLines
        for offset in 0..<inputLines {
            canvas.frame.fill(row: inputTop + offset, style: theme.input)
            let line = draftLines.suffix(inputLines).dropFirst(0)
            let text = Array(line).indices.contains(offset) ? Array(line)[offset] : ""
            canvas.text((offset == 0 ? "> " : "  ") + text + (offset == inputLines - 1 ? "▏" : ""), x: 1, y: inputTop + offset, style: theme.input)
        }
        let typingRow = inputTop - 1
        if let peer = state.peer, state.typingPeers.contains(peer.lowercased()) {
            canvas.text("\(peer) is typing…", x: 1, y: typingRow, style: theme.muted)
        }
        // The history, laid out from the newest message back only as far as the window needs
        // (a conversation of any length costs what the screen shows), then the window that
        // ends `scroll` lines above the bottom.
        let historyRows = rows.lowerBound..<typingRow
        let needed = historyRows.count + state.scroll
        var lines: [(text: String, style: CellStyle)] = []
        var reachedOldest = true
        for message in state.messages.reversed() {
            if lines.count >= needed {
                reachedOldest = false
                break
            }
            let mine = message.sender.lowercased() == me
            let header = "\(mine ? "you" : message.sender) · \(Canvas.clock(message.createdAt))"
            let mark = mine ? mark(message) : ""
            var block: [(text: String, style: CellStyle)] = [
                (header + (mark.isEmpty ? "" : "  " + mark), message.state == .failed ? theme.error : (mine ? theme.mine : theme.accent)),
            ]
            for line in Canvas.wrap(message.text, width: width - 2) { block.append(("  " + line, mine ? theme.mine : theme.theirs)) }
            lines.insert(contentsOf: block, at: 0)
        }
        if reachedOldest, state.hasOlderMessages { lines.insert(("↑ older messages: scroll up to load", theme.muted), at: 0) }
        if state.messages.isEmpty {
            lines.append((state.busySince == nil ? "No messages yet: say hello." : "Loading…", theme.muted))
        }
        let end = max(lines.count - state.scroll, min(lines.count, historyRows.count))
        let start = max(0, end - historyRows.count)
        for (offset, line) in lines[start..<end].enumerated() {
            canvas.text(line.text, x: 1, y: historyRows.lowerBound + offset, style: line.style, maxX: canvas.width - 1)
        }
    }
}
