/// Settings: the theme and the bell on new messages, remembered per user, and the account
/// pages (sessions, password, deletion).
enum SettingsScreen {
    static func draw(_ state: AppState, noColor: Bool, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Settings", x: 1, y: rows.lowerBound, style: theme.title)
        canvas.text("Theme", x: 1, y: rows.lowerBound + 2, style: theme.accent)
        for (index, name) in Theme.Name.allCases.enumerated() {
            let selected = index == state.settingsSelection
            let current = name == state.theme ? "  (current)" : ""
            canvas.text(
                (selected ? " ▸ " : "   ") + name.rawValue + current, x: 1, y: rows.lowerBound + 3 + index,
                style: selected ? theme.selection : theme.base)
        }
        let bell = AppState.bellSettingsRow
        let bellTop = rows.lowerBound + 4 + bell
        canvas.text("Notifications", x: 1, y: bellTop, style: theme.accent)
        let bellSelected = state.settingsSelection == bell
        canvas.text(
            (bellSelected ? " ▸ " : "   ") + "Bell on new messages: " + (state.bellOnNewMessages ? "on" : "off"), x: 1,
            y: bellTop + 1, style: bellSelected ? theme.selection : theme.base)
        let accountTop = bellTop + 3
        canvas.text("Account", x: 1, y: accountTop, style: theme.accent)
        for (offset, item) in AppState.accountItems.enumerated() {
            let selected = bell + 1 + offset == state.settingsSelection
            canvas.text(
                (selected ? " ▸ " : "   ") + item.title, x: 1, y: accountTop + 1 + offset,
                style: selected ? theme.selection : theme.base)
        }
        if noColor {
            canvas.text(
                "NO_COLOR is set: themes keep only bold, underline and reverse.", x: 1, y: accountTop + 5,
                style: theme.muted)
        }
    }
}
