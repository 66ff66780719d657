/// The app's look: a style per role. Three themes; with `NO_COLOR` set every role keeps only
/// bold, dim, underline and reverse.
public struct Theme: Sendable, Hashable {
    /// The theme names, as `--theme` and the settings screen take them.
    public enum Name: String, Sendable, CaseIterable, Hashable {
        case dark, light, highContrast = "high-contrast"
    }

    public var name: Name
    public var base: CellStyle
    public var statusBar: CellStyle
    public var title: CellStyle
    public var selection: CellStyle
    public var muted: CellStyle
    public var accent: CellStyle
    public var mine: CellStyle
    public var theirs: CellStyle
    public var error: CellStyle
    public var notice: CellStyle
    public var input: CellStyle

    /// A theme by name; `noColor` strips colors.
    public static func named(_ name: Name, noColor: Bool = false) -> Theme {
        var theme: Theme
        switch name {
        case .dark:
            theme = Theme(
                name: name, base: .plain, statusBar: CellStyle(foreground: .black, background: .cyan),
                title: CellStyle(foreground: .cyan, bold: true), selection: CellStyle(reverse: true),
                muted: CellStyle(foreground: .brightBlack), accent: CellStyle(foreground: .yellow, bold: true),
                mine: CellStyle(foreground: .green), theirs: CellStyle(foreground: .brightWhite),
                error: CellStyle(foreground: .white, background: .red, bold: true),
                notice: CellStyle(foreground: .black, background: .yellow),
                input: CellStyle(underline: true))
        case .light:
            theme = Theme(
                name: name, base: CellStyle(foreground: .black, background: .brightWhite),
                statusBar: CellStyle(foreground: .white, background: .blue),
                title: CellStyle(foreground: .blue, background: .brightWhite, bold: true),
                selection: CellStyle(foreground: .white, background: .blue),
                muted: CellStyle(foreground: .brightBlack, background: .brightWhite),
                accent: CellStyle(foreground: .magenta, background: .brightWhite, bold: true),
                mine: CellStyle(foreground: .green, background: .brightWhite),
                theirs: CellStyle(foreground: .black, background: .brightWhite),
                error: CellStyle(foreground: .white, background: .red, bold: true),
                notice: CellStyle(foreground: .black, background: .yellow),
                input: CellStyle(foreground: .black, background: .brightWhite, underline: true))
        case .highContrast:
            theme = Theme(
                name: name, base: CellStyle(foreground: .brightWhite, background: .black),
                statusBar: CellStyle(foreground: .black, background: .brightWhite, bold: true),
                title: CellStyle(foreground: .brightYellow, background: .black, bold: true),
                selection: CellStyle(foreground: .black, background: .brightYellow, bold: true),
                muted: CellStyle(foreground: .brightWhite, background: .black),
                accent: CellStyle(foreground: .brightYellow, background: .black, bold: true),
                mine: CellStyle(foreground: .brightGreen, background: .black, bold: true),
                theirs: CellStyle(foreground: .brightWhite, background: .black, bold: true),
                error: CellStyle(foreground: .brightWhite, background: .red, bold: true),
                notice: CellStyle(foreground: .black, background: .brightYellow, bold: true),
                input: CellStyle(foreground: .brightWhite, background: .black, underline: true))
        }
        if noColor { theme.stripColors() }
        return theme
    }

    private mutating func stripColors() {
        for path in [
            \Theme.base, \.statusBar, \.title, \.selection, \.muted, \.accent, \.mine, \.theirs, \.error, \.notice,
            \.input,
        ] as [WritableKeyPath<Theme, CellStyle>] {
            self[keyPath: path].foreground = nil
            self[keyPath: path].background = nil
        }
        statusBar.reverse = true
        error.reverse = true
        notice.reverse = true
    }
}
