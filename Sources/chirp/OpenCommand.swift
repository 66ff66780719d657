import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpTerminal
import Foundation

/// `chirp open URL`: the client's router says where the link leads; in a terminal, a screen the
/// app has opens the app there (`AppCoordinator`), anything else prints the destination's text
/// (rendered by the module that owns it).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract:
            "Open a chirp:// link: conversations, conversation/NAME, timeline, user/NAME, me, settings, compose, help.",
        discussion: "Examples: chirp open chirp://conversation/bob · chirp open 'chirp://settings?theme=dark'")

    @Argument(help: "The link, such as chirp://conversation/bob.")
    var url: String

    @OptionGroup var client: ClientOptions
    @OptionGroup var app: AppOptions

    func run() async throws {
        guard let link = URL(string: url), link.scheme != nil else {
            throw ValidationError("'\(url)' is not a URL; try chirp://timeline")
        }
        let interactive = TerminalDevice.isInteractive
        let runtime = try ClientRuntime(client, console: interactive ? .none : .standardError)
        let result = try await runtime.app.router.open(link)
        guard let destination = result as? ClientDestination else {
            throw ValidationError(String(describing: result))
        }
        if interactive, AppCoordinator.action(for: destination) != nil {
            await app.runApp(runtime.app, open: link)
            return
        }
        _ = try await runtime.session()
        let text = try await runtime.run { try await runtime.app.text(for: destination) }
        text.split(separator: "\n", omittingEmptySubsequences: false).forEach { printLine(String($0)) }
    }
}
