import Foundation

/// The conversations: pinned ones first (📌), peer or group (👥 and its title), encrypted (🔒), unread count (not
/// highlighted when muted, 🔕), last message; and the "message who?" prompt.
enum ConversationListScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Conversations and followers", x: 1, y: rows.lowerBound, style: theme.title)
        guard !state.conversations.isEmpty else {
            canvas.text(
                "No conversations or followers yet. Press n to message someone who follows you.", x: 1,
                y: rows.lowerBound + 2,
                style: theme.muted)
            return
        }
        let listRows = (rows.lowerBound + 2)..<rows.upperBound
        let first = max(0, state.selectedConversation - listRows.count + 1)
        for (offset, row) in state.conversations.dropFirst(first).prefix(listRows.count).enumerated() {
            let index = first + offset
            let y = listRows.lowerBound + offset
            let selected = index == state.selectedConversation
            let base = selected ? theme.selection : theme.base
            canvas.frame.fill(row: y, style: base)
            var x = canvas.frame.draw(selected ? " ▸ " : "   ", x: 0, y: y, style: base)
            if row.pinned { x = canvas.frame.draw("📌", x: x, y: y, style: base) }
            if row.isGroup { x = canvas.frame.draw("👥", x: x, y: y, style: base) }
            if row.encrypted { x = canvas.frame.draw("🔒", x: x, y: y, style: base) }
            x = canvas.frame.draw(row.shownName, x: x, y: y, style: selected ? base : theme.accent)
            // Unread messages of a muted conversation still count, without the highlight that
            // alerts to new ones.
            let unreadStyle = selected ? base : row.muted ? theme.muted : theme.notice
            if row.unreadCount > 0 { x = canvas.frame.draw(" (\(row.unreadCount))", x: x, y: y, style: unreadStyle) }
            if row.muted { x = canvas.frame.draw(" 🔕", x: x, y: y, style: base) }
            let nameColumn = 20
            x = max(x + 2, nameColumn)
            guard row.hasMessages else {
                // A group with no message yet (just made, or just joined), or a follower to write to.
                let note = row.isGroup ? "no messages yet" : "follows you · no messages yet"
                canvas.frame.draw(note, x: x, y: y, style: selected ? base : theme.muted, maxX: canvas.width - 1)
                continue
            }
            let who = row.lastSender.lowercased() == state.username?.lowercased() ? "you" : row.lastSender
            let preview = (who + ": " + row.lastText).replacingOccurrences(of: "\n", with: " ")
            x = canvas.frame.draw(preview, x: x, y: y, style: selected ? base : theme.muted, maxX: canvas.width - 7)
            canvas.frame.draw(Canvas.clock(row.lastAt), x: canvas.width - 6, y: y, style: selected ? base : theme.muted)
        }
    }

    static func drawNewConversation(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("New message", x: 1, y: rows.lowerBound, style: theme.title)
        canvas.text("To whom?", x: 1, y: rows.lowerBound + 2)
        canvas.frame.fill(row: rows.lowerBound + 2, from: 10, to: 30, style: theme.input)
        canvas.text(state.newPeer.text + "▏", x: 10, y: rows.lowerBound + 2, style: theme.input, maxX: 30)
        canvas.text(
            "They must follow you, or have messaged you, to receive it.", x: 1, y: rows.lowerBound + 4,
            style: theme.muted)
    }
}
