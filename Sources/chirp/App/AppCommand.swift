import ArgumentParser
import ChirpClient
import ChirpModules
import ChirpTerminal
import Foundation

extension Theme.Name: ExpressibleByArgument {}

/// Options of the terminal app.
struct AppOptions: ParsableArguments {
    @Option(help: "Theme: dark, light or high-contrast (remembered per user; NO_COLOR turns colors off).")
    var theme: Theme.Name?

    /// `NO_COLOR` set to anything non-empty (no-color.org).
    var noColor: Bool { !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty }

    /// `--theme`, else the user's saved one, else dark.
    func resolvedTheme(for user: UserContext?) -> Theme.Name {
        if let theme {
            try? user?.setSetting("theme", to: theme.rawValue)
            return theme
        }
        return user?.setting("theme").flatMap(Theme.Name.init(rawValue:)) ?? .dark
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
        let manager = try AccountManager(home: URL(fileURLWithPath: client.home), serverURL: try client.serverURL)
        if let token = client.sessionToken { _ = try await ClientRuntime(client).run { try await manager.adopt(token: token) } }
        let theme = options.resolvedTheme(for: manager.context.currentUser)
        await TerminalApp.run(client: .live(manager: manager), theme: theme, noColor: options.noColor)
    }
}
