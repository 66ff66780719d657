import ChirpCommandSupport
import Dispatch
import Foundation

/// `chirp demo --web`: the demo server (accounts, history, the bot) without the terminal app;
/// prints the web client's address and the demo logins, and runs until SIGINT or SIGTERM.
enum WebDemo {
    static func run() async throws {
        say("Starting the demo server and seeding it…")
        let server = try await EmbeddedServer { $0.rateLimitsEnabled = false }
        let homes = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-demo-\(UUID().uuidString)")
        let seeded = try await DemoSeeder(server: server.baseURL, homes: homes).seed()
        let demoBot = DemoBot(session: seeded.bob)
        await demoBot.catchUp()
        let bot = Task { await demoBot.run() }
        say(
            """
            Open \(server.baseURL.absoluteString)/ in a browser and log in as alice, password \(DemoSeeder.password).
            (carol has the same password; bob is the bot that answers.) Ctrl-C stops the demo.
            """)
        await waitForStopSignal()
        bot.cancel()
        say("Demo over; stopping its server and deleting its data.")
        await server.stop(timeout: .seconds(3))
        try? FileManager.default.removeItem(at: homes)
    }

    /// Writes a line unbuffered, so that a script reading a pipe gets the address at once.
    private static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Returns on the first SIGINT or SIGTERM.
    private static func waitForStopSignal() async {
        let (stops, continuation) = AsyncStream<Void>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        var iterator = stops.makeAsyncIterator()
        _ = await iterator.next()
        sources.forEach { $0.cancel() }
    }
}
