/// Log in or create an account.
enum LoginScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let login = state.login
        let theme = canvas.theme
        let boxWidth = min(50, canvas.width - 4)
        let x = (canvas.width - boxWidth) / 2
        var y = rows.lowerBound + max((rows.count - 10) / 2, 0)
        canvas.text("Chirp", x: x, y: y, style: theme.title)
        canvas.text(login.mode == .login ? "Log in" : "Create an account", x: x + 7, y: y, style: theme.accent)
        y += 2
        field(
            "Username", login.username.text, focused: login.focus == .username, x: x, y: y, width: boxWidth, on: &canvas
        )
        y += 2
        field(
            "Password", String(repeating: "•", count: login.password.text.count), focused: login.focus == .password,
            x: x, y: y, width: boxWidth, on: &canvas)
        y += 2
        if login.isSubmitting {
            canvas.text(login.mode == .login ? "Logging in…" : "Creating the account…", x: x, y: y, style: theme.muted)
        } else if let error = login.error {
            for (offset, line) in Canvas.wrap(error, width: boxWidth).prefix(2).enumerated() {
                canvas.text(line, x: x, y: y + offset, style: theme.error)
            }
        } else {
            canvas.text(
                login.mode == .login ? "No account yet? Ctrl-R to register." : "Have an account? Ctrl-R to log in.",
                x: x, y: y, style: theme.muted)
        }
    }

    private static func field(
        _ label: String, _ value: String, focused: Bool, x: Int, y: Int, width: Int, on canvas: inout Canvas
    ) {
        let theme = canvas.theme
        canvas.text(label, x: x, y: y, style: focused ? theme.accent : theme.base)
        let start = x + 10
        canvas.frame.fill(row: y, from: start, to: x + width, style: theme.input)
        let visible = width - 11
        let shown = TextWidth.of(value) > visible ? String(value.suffix(visible)) : value
        canvas.text(shown + (focused ? "▏" : ""), x: start, y: y, style: theme.input, maxX: x + width)
    }
}
