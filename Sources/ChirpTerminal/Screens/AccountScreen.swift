import ChirpModels

/// The account pages reached from Settings: the sessions (user agent, last use, this
/// device), changing the password, deleting the account. Passwords show as dots.
enum AccountScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let account = state.account
        switch account.page {
        case .sessions: drawSessions(account, in: rows, on: &canvas)
        case .password: drawPassword(account, in: rows, on: &canvas)
        case .delete: drawDelete(account, username: state.username ?? "", in: rows, on: &canvas)
        }
        let theme = canvas.theme
        let y = rows.upperBound - 1
        if account.isWorking {
            canvas.text(account.page == .sessions ? "Asking the server…" : "Working…", x: 1, y: y, style: theme.muted)
        } else if let error = account.error {
            canvas.text(error, x: 1, y: y, style: theme.error, maxX: canvas.width - 1)
        } else if let notice = account.notice {
            canvas.text(notice, x: 1, y: y, style: theme.notice, maxX: canvas.width - 1)
        }
    }

    /// `YYYY-MM-DD HH:MM` (UTC) of a time.
    static func when(_ time: Timestamp) -> String {
        let characters = Array(time.rfc3339)
        guard characters.count >= 16 else { return time.rfc3339 }
        return String(characters[0..<10]) + " " + String(characters[11..<16])
    }

    private static func drawSessions(_ account: AccountFeature.State, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Sessions", x: 1, y: rows.lowerBound, style: theme.title)
        canvas.text(
            "Devices logged in to this account; the newest first.", x: 12, y: rows.lowerBound, style: theme.muted,
            maxX: canvas.width - 1)
        let listRows = (rows.lowerBound + 2)..<(rows.upperBound - 2)
        guard !account.sessions.isEmpty || account.isWorking else {
            canvas.text("No sessions.", x: 1, y: listRows.lowerBound, style: theme.muted)
            return
        }
        let first = max(0, account.selectedSession - listRows.count + 1)
        for (offset, session) in account.sessions.dropFirst(first).prefix(listRows.count).enumerated() {
            let index = first + offset
            let y = listRows.lowerBound + offset
            let selected = index == account.selectedSession
            let base = selected ? theme.selection : theme.base
            canvas.frame.fill(row: y, style: base)
            var x = canvas.frame.draw(selected ? " ▸ " : "   ", x: 0, y: y, style: base)
            let used = "last used " + when(session.lastUsedAt) + (session.current ? "  (this device)" : "")
            let usedWidth = TextWidth.of(used)
            x = canvas.frame.draw(
                session.userAgent ?? "unknown client", x: x, y: y, style: selected ? base : theme.accent,
                maxX: max(canvas.width - usedWidth - 3, x))
            canvas.frame.draw(
                used, x: max(canvas.width - usedWidth - 1, x + 1), y: y,
                style: selected ? base : session.current ? theme.notice : theme.muted)
        }
    }

    private static func drawPassword(_ account: AccountFeature.State, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Change password", x: 1, y: rows.lowerBound, style: theme.title)
        let labels = ["Current password", "New password", "New, again"]
        for (index, label) in labels.enumerated() {
            field(
                label, account.passwords[index], focused: account.focus == index, y: rows.lowerBound + 2 + index * 2,
                on: &canvas)
        }
        canvas.text(
            "Your other sessions end; this one stays.", x: 1, y: rows.lowerBound + 8, style: theme.muted,
            maxX: canvas.width - 1)
    }

    private static func drawDelete(
        _ account: AccountFeature.State, username: String, in rows: Range<Int>, on canvas: inout Canvas
    ) {
        let theme = canvas.theme
        canvas.text("Delete account", x: 1, y: rows.lowerBound, style: theme.title)
        let warning =
            "Deleting \(username) removes its sessions, tweets and follows; the messages you sent become "
            + "\"deleted\" for their recipients, and the name may be taken again. It cannot be undone."
        var y = rows.lowerBound + 2
        for line in Canvas.wrap(warning, width: canvas.width - 2).prefix(3) {
            canvas.text(line, x: 1, y: y, style: theme.base)
            y += 1
        }
        field("Password", account.passwords[0], focused: !account.confirmingDelete, y: y + 1, on: &canvas)
    }

    private static func field(_ label: String, _ input: TextInput, focused: Bool, y: Int, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text(label, x: 1, y: y, style: focused ? theme.accent : theme.base)
        let start = 20
        let end = min(canvas.width - 1, start + 40)
        canvas.frame.fill(row: y, from: start, to: end, style: theme.input)
        canvas.text(
            String(repeating: "•", count: input.text.count) + (focused ? "▏" : ""), x: start, y: y, style: theme.input,
            maxX: end)
    }
}
