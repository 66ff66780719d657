import ArgumentParser
import ChirpClient
import ChirpTerminal
import Foundation

/// `chirp open URL`: in a terminal, opens the app at that screen (`AppCoordinator`); otherwise
/// prints the screen's text through the client's modules and router.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a chirp:// link: conversations, conversation/NAME, timeline, user/NAME, me, settings.",
        discussion: "Examples: chirp open chirp://conversation/bob · chirp open 'chirp://settings?theme=dark'")

    @Argument(help: "The link, such as chirp://conversation/bob.")
    var url: String

    @OptionGroup var client: ClientOptions
    @OptionGroup var app: AppOptions

    func run() async throws {
        guard let link = URL(string: url), link.scheme != nil else {
            throw ValidationError("'\(url)' is not a URL; try chirp://timeline")
        }
        // In a terminal, a link to one of the app's screens opens the app there.
        if TerminalDevice.isInteractive, await AppCoordinator().action(for: link) != nil {
            let manager = try AccountManager(home: URL(fileURLWithPath: client.home), serverURL: try client.serverURL)
            if let token = client.sessionToken { _ = try await ClientRuntime(client).run { try await manager.adopt(token: token) } }
            await TerminalApp.run(
                client: .live(manager: manager), theme: app.resolvedTheme(for: manager.context.currentUser), noColor: app.noColor, open: link)
            return
        }
        let app = try ChirpClientApp(home: URL(fileURLWithPath: client.home), server: try client.serverURL, token: client.sessionToken)
        do {
            let result = try await app.open(link)
            if let missing = result as? RouteNotFound {
                throw ValidationError(missing.description)
            }
            print(result)
        } catch let error as ClientAppError {
            throw ValidationError(error.description)
        }
    }
}
