import ArgumentParser
import ChirpCommandSupport
import Hummingbird
import Logging

/// `chirp bench bare-server` (hidden): a Hummingbird app with one route that does nothing,
/// `GET /bare` → `ok`: the ceiling a Chirp route is compared with in the same run.
struct BareServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bare-server", shouldDisplay: false)

    func run() async throws {
        let router = Router()
        router.get("bare") { _, _ in "ok" }
        var logger = Logger(label: "chirp.bare")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                printLine("chirp: listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)")
            },
            logger: logger)
        try await app.runService()
    }
}
