import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModules
import ChirpNetworking
import ChirpTerminal
import Foundation

/// `chirp demo`: an embedded server with accounts, history and a bot, and the app logged in as
/// alice. Everything lives in temporary directories and is gone when the app quits.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try Chirp: a demo server with alice, bob (a bot) and carol, and the app as alice.")

    @OptionGroup var options: AppOptions

    @Flag(help: "Instead of the terminal app, print the address of the web client and run until Ctrl-C.")
    var web = false

    func run() async throws {
        if web { return try await WebDemo.run() }
        guard TerminalDevice.isInteractive else {
            throw CommandFailure("chirp demo needs a terminal: run it in one (tmux works too)")
        }
        print("Starting the demo server and seeding it…")
        let server = try await EmbeddedServer { $0.rateLimitsEnabled = false }
        let homes = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-demo-\(UUID().uuidString)")
        let seeded = try await DemoSeeder(server: server.baseURL, homes: homes).seed()
        let demoBot = DemoBot(session: seeded.bob)
        await demoBot.catchUp()
        let bot = Task { await demoBot.run() }
        let url = server.baseURL.absoluteString
        let hint = "As someone else, from another terminal: chirp login carol --server \(url) (password chirp-demo)"
        print(hint)
        let diagnostics = ClientProcess.diagnostics(
            context: seeded.alice.context, server: seeded.alice.server, console: .none)
        let app = try ChirpClientApp(accounts: seeded.alice, diagnostics: diagnostics)
        await options.runApp(
            app,
            welcome: "You are alice · bob is a bot · others: chirp login carol --server \(url), password chirp-demo")
        bot.cancel()
        print("Demo over; stopping its server and deleting its data.")
        await server.stop(timeout: .seconds(3))
        try? FileManager.default.removeItem(at: homes)
    }
}
