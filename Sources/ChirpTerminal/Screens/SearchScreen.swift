import ChirpModels

/// Searching messages: the words, where (all conversations or one), and the results: peer,
/// time, the text around the first word found.
enum SearchScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        let search = state.search
        canvas.text("Search messages", x: 1, y: rows.lowerBound, style: theme.title)
        let scope = search.peer.map { "in the conversation with \($0)" } ?? "in all your conversations"
        canvas.text(scope, x: 18, y: rows.lowerBound, style: theme.muted, maxX: canvas.width - 1)
        let inputY = rows.lowerBound + 2
        canvas.frame.fill(row: inputY, from: 1, to: canvas.width - 1, style: theme.input)
        let field = search.input.text
        let visible = canvas.width - 6
        let shown = TextWidth.of(field) > visible ? String(field.suffix(visible)) : field
        canvas.text("/ " + shown + "▏", x: 2, y: inputY, style: theme.input, maxX: canvas.width - 1)
        let statusY = inputY + 2
        if search.isSearching {
            canvas.text("Searching…", x: 1, y: statusY, style: theme.muted)
            return
        }
        if let error = search.error {
            canvas.text(error, x: 1, y: statusY, style: theme.error, maxX: canvas.width - 1)
            return
        }
        guard let words = search.searchedFor else {
            canvas.text(
                "Every word must appear; case and accents do not matter. Newest first.", x: 1, y: statusY,
                style: theme.muted,
                maxX: canvas.width - 1)
            return
        }
        guard !search.results.isEmpty else {
            canvas.text(
                "No message holds every word of “\(words)”.", x: 1, y: statusY, style: theme.muted,
                maxX: canvas.width - 1)
            return
        }
        let count = search.results.count
        canvas.text(
            "\(count) message\(count == 1 ? "" : "s") · Enter opens the selected one", x: 1, y: statusY,
            style: theme.muted)
        let listRows = (statusY + 1)..<rows.upperBound
        let first = max(0, search.selected - listRows.count + 1)
        let me = state.username?.lowercased() ?? ""
        for (offset, message) in search.results.dropFirst(first).prefix(listRows.count).enumerated() {
            let y = listRows.lowerBound + offset
            let selected = first + offset == search.selected
            let base = selected ? theme.selection : theme.base
            canvas.frame.fill(row: y, style: base)
            let mine = message.sender.lowercased() == me
            let peer = mine ? message.recipient : message.sender
            var x = canvas.frame.draw(selected ? " ▸ " : "   ", x: 0, y: y, style: base)
            x = canvas.frame.draw(peer, x: x, y: y, style: selected ? base : theme.accent, maxX: 19)
            x = canvas.frame.draw(
                " " + AccountScreen.when(message.createdAt), x: max(x, 19), y: y, style: selected ? base : theme.muted)
            let text = (mine ? "you: " : "") + excerpt(message.text, around: words, width: canvas.width - x - 3)
            canvas.frame.draw(text, x: x + 2, y: y, style: base, maxX: canvas.width - 1)
        }
    }

    /// One line of `text` that shows the first searched word: from a little before it when the
    /// start does not reach it (accents and case ignored, as the search does).
    static func excerpt(_ text: String, around words: String, width: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard TextWidth.of(flat) > width, let word = words.split(separator: " ").first,
            let found = flat.range(of: word, options: [.caseInsensitive, .diacriticInsensitive])
        else { return flat }
        let before = flat.distance(from: flat.startIndex, to: found.lowerBound)
        guard before > width / 3 else { return flat }
        return "…" + String(flat.dropFirst(before - width / 4))
    }
}
