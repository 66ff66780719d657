/// Settings: the theme, remembered per user.
enum SettingsScreen {
    static func draw(_ state: AppState, noColor: Bool, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Settings", x: 1, y: rows.lowerBound, style: theme.title)
        canvas.text("Theme", x: 1, y: rows.lowerBound + 2, style: theme.accent)
        for (index, name) in Theme.Name.allCases.enumerated() {
            let selected = index == state.settingsSelection
            let current = name == state.theme ? "  (current)" : ""
            canvas.text((selected ? " ▸ " : "   ") + name.rawValue + current, x: 1, y: rows.lowerBound + 3 + index,
                        style: selected ? theme.selection : theme.base)
        }
        if noColor {
            canvas.text("NO_COLOR is set: themes keep only bold, underline and reverse.", x: 1, y: rows.lowerBound + 8, style: theme.muted)
        }
    }
}
