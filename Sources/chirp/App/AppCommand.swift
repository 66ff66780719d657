import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModules
import ChirpTerminal
import Foundation

extension Theme.Name: ExpressibleByArgument {}

/// Options of the terminal app.
struct AppOptions: ParsableArguments {
    @Option(help: "Theme: dark, light or high-contrast (remembered per user; NO_COLOR turns colors off).")
    var theme: Theme.Name?

    /// `NO_COLOR` set to anything non-empty (no-color.org).
    var noColor: Bool { !(EnvironmentVariable.value("NO_COLOR") ?? "").isEmpty }

    /// `--theme`, else the user's saved one, else dark.
    func resolvedTheme(for user: UserContext?) -> Theme.Name {
        if let theme {
            try? user?.setSetting("theme", to: theme.rawValue)
            return theme
        }
        return user?.setting("theme").flatMap(Theme.Name.init(rawValue:)) ?? .dark
    }

    /// Runs the terminal app on the assembled client, optionally opening `link` first.
    @MainActor
    func runApp(_ app: ChirpClientApp, welcome: String? = nil, open link: URL? = nil) async {
        await TerminalApp.run(
            client: .live(app: app), router: app.router, theme: resolvedTheme(for: app.context.currentUser),
            noColor: noColor,
            welcome: welcome, open: link)
    }
}

/// `chirp` with no subcommand: the terminal app against `--server`.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "The terminal app (what plain `chirp` opens): conversations, messages, timeline.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var options: AppOptions

    func run() async throws {
        guard TerminalDevice.isInteractive else {
            throw CommandFailure("the app needs a terminal: run chirp in one, or use the commands (chirp --help)")
        }
        // Start-up (adopting a --token included) runs inside the app, its failures on the banner.
        let runtime = try ClientRuntime(client, console: .none)
        await options.runApp(runtime.app)
    }
}
