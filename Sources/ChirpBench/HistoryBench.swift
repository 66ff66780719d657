import ArgumentParser
import ChirpClient
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpStore
import ChirpTerminal
import Foundation

/// `chirp bench history`: how long the terminal app takes to page back through a conversation
/// after time away. A child server gets alice's early messages, which bob's client reads, then
/// `--messages` more; bob's app (its reducer, the kit reading history, every frame rendered)
/// then gets PgUp until it shows the first message. Counts the messages the frames showed.
struct HistoryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Measure paging back through a conversation in the terminal app after time away.")

    @Option(help: "Messages that arrive while the reader is away.") var messages = 2_000
    @Option(help: "Messages the reader had already read.") var early = 5
    @Option(help: "Terminal width.") var width = 100
    @Option(help: "Terminal height.") var height = 60

    @MainActor
    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-\(UUID().uuidString)")
        let server = try await ChildServer(
            arguments: LoadBench.serveArguments(dataDirectory: directory) + ["--no-rate-limits"],
            ownedDirectory: directory)
        do {
            try await measure(server.baseURL)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @MainActor
    private func measure(_ url: URL) async throws {
        let alice = ChirpAPIClient(baseURL: url)
        try await alice.register("alice", password: "alice-password")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let accounts = AccountManager(context: try AppContext(root: home), server: Server(baseURL: url))
        let session = try await accounts.register("bob", password: "bob-password")
        try await session.follow("alice")
        try await Self.send(alice, 1...early)
        _ = try await session.messages(with: "alice", limit: AppState.pageSize, refresh: true)
        let seeding = ContinuousClock.now
        try await Self.send(alice, (early + 1)...(early + messages))
        print("seeded \(messages) messages in \(ContinuousClock.now - seeding)")

        let reopened = try accounts.currentSession()
        var client = AppClient.failing
        client.messages = { peer, limit, refresh in
            let page = try await reopened.messages(with: peer, limit: limit, refresh: refresh)
            return (page.items, page.hasOlder)
        }
        var state = AppState(now: .now)
        state.username = "bob"
        state.screenRows = height
        let store = Store(initialState: state, reducer: AppFeature(client: client))
        var shown = Set<String>()
        func frame() {
            let text = AppView.render(store.state, width: width, height: height).text
            shown.formUnion(
                text.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("n") && Int($0.dropFirst()) != nil }
                    .map(String.init))
        }
        let started = ContinuousClock.now
        await store.send(.navigate(.conversation("alice"))).finish()
        frame()
        var presses = 0
        // Until the view holds the oldest message and nothing older is left to load.
        while store.state.hasOlderMessages || store.state.scroll < store.state.messages.count - 1,
            presses < 10 * (early + messages)
        {
            await store.send(.key(.pageUp)).finish()
            frame()
            presses += 1
        }
        let elapsed = ContinuousClock.now - started
        let total = early + messages
        let missing = (1...total).filter { !shown.contains("n\($0)") }
        print(
            "terminal app: paged back through \(total) messages in \(elapsed) (\(presses) PgUp at \(width)×\(height)); "
                + "\(total - missing.count) of \(total) shown"
                + (missing.isEmpty ? "" : ", not shown: \(missing.prefix(20))"))
    }

    /// alice sends bob `n<number>` for each number, fifty at a time.
    static func send(_ alice: ChirpAPIClient, _ numbers: ClosedRange<Int>) async throws {
        for batch in stride(from: numbers.lowerBound, through: numbers.upperBound, by: 50) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in batch...min(batch + 49, numbers.upperBound) {
                    group.addTask {
                        _ = try await alice.send(
                            ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "n\(number)", text: "n\(number)"))
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
