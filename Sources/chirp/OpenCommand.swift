import ArgumentParser
import ChirpClient
import Foundation

/// `chirp open URL`: shows a `chirp://` deep link through the client's modules and router.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a chirp:// link: conversations, conversation/NAME, timeline, user/NAME, me, settings.",
        discussion: "Examples: chirp open chirp://conversation/bob · chirp open 'chirp://settings?theme=dark'")

    @Argument(help: "The link, such as chirp://conversation/bob.")
    var url: String

    @OptionGroup var client: ClientOptions

    func run() async throws {
        guard let link = URL(string: url), link.scheme != nil else {
            throw ValidationError("'\(url)' is not a URL; try chirp://timeline")
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
