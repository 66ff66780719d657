/// Every key, by screen.
enum HelpScreen {
    static let sections: [(String, [(String, String)])] = [
        ("Everywhere", [("Ctrl-C q", "quit (q: lists)"), ("? s", "this help, settings"), ("L", "log out")]),
        (
            "Conversations",
            [
                ("↑↓ j k", "select"), ("Enter", "open"), ("n R t Tab", "new, requests, timeline"),
                ("r /", "refresh, search messages"), ("p m", "pin, mute (again: undo)"),
            ]
        ),
        (
            "Conversation",
            [
                ("Enter", "send · Alt-Enter new line"), ("↑ ↓", "select a message"),
                ("PgUp PgDn", "scroll, older messages"),
                ("Ctrl-A", "attach file (Bksp: drop)"), ("/", "search (input empty)"),
                ("Ctrl-R", "retry the failed message"),
                ("Ctrl-X/P", "block, report (asks)"), ("Ctrl-E/K", "encrypt, safety number"),
            ]
        ),
        (
            "Selected message",
            [
                ("+", "react: 1–6 or an emoji"), ("r", "reply (quoted over input)"), ("e", "edit yours (15 minutes)"),
                ("d", "unsend yours (y: yes)"), ("o", "save its attachment"), ("Esc", "back to the input"),
            ]
        ),
        ("Search", [("Enter", "search, then open result"), ("Tab", "this conversation or all")]),
        ("Timeline", [("r c", "refresh, compose a tweet"), ("↑↓", "scroll"), ("Esc Tab", "conversations")]),
        (
            "Settings",
            [
                ("↑↓ Enter", "theme, bell, account"), ("x", "end a session (y: yes)"),
                ("Tab", "next password field"),
            ]
        ),
    ]

    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Keys", x: 1, y: rows.lowerBound, style: theme.title)
        var y = rows.lowerBound + 2
        var x = 1
        let columnWidth = canvas.width >= 70 ? canvas.width / 2 - 1 : canvas.width - 2
        for (title, keys) in sections {
            if y + keys.count + 1 > rows.upperBound, x == 1, columnWidth < canvas.width - 2 {
                x = columnWidth + 2
                y = rows.lowerBound + 2
            }
            guard y < rows.upperBound else { break }
            canvas.text(title, x: x, y: y, style: theme.accent)
            y += 1
            for (key, meaning) in keys {
                guard y < rows.upperBound else { break }
                canvas.text(key, x: x + 2, y: y, style: theme.base)
                canvas.text(meaning, x: x + 14, y: y, style: theme.muted, maxX: x + columnWidth)
                y += 1
            }
        }
    }
}
