import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

/// The terminal app's history under tmux, through the real keys: after time away PgUp pages
/// back through every message to the first, ↑ selects where the view is, and the list's
/// unread count is the server's.
@Suite("Terminal history under tmux", .serialized)
struct TmuxHistoryTests {
    typealias Pane = TmuxEndToEndTests.Pane

    /// A server with alice (who writes, over the API) and bob (who reads, in the app, with a
    /// client directory of his own), bob following alice.
    struct Scene {
        let server: ServerProcess
        let alice: ChirpAPIClient
        let bob: ChirpAPIClient
        let home = ServerProcess.temporaryDirectory()

        init() async throws {
            server = try await ServerProcess(arguments: ["--no-rate-limits"])
            alice = ChirpAPIClient(baseURL: server.baseURL)
            try await alice.register("alice", password: "alice-password")
            let registered = try await runChirp(
                ["register", "bob", "--home", home.path, "--server", server.baseURL.absoluteString],
                input: "bob-password\n")
            guard registered.status == 0 else { throw TmuxError(description: "register bob: \(registered.output)") }
            bob = ChirpAPIClient(baseURL: server.baseURL)
            _ = try await bob.login("bob", password: "bob-password")
            _ = try await bob.send(ChirpEndpoints.Follow("alice"))
        }

        /// alice sends bob `n<number>` for each number, fifty at a time.
        func aliceSends(_ numbers: ClosedRange<Int>) async throws {
            let alice = alice
            try await Seeding.concurrently(numbers) { number in
                _ = try await alice.send(
                    ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "n\(number)", text: "n\(number)"))
            }
        }

        /// The app as bob, in a pane of its own.
        func app(tmux: String) async throws -> Pane {
            let command =
                "\(ServerProcess.binaryURL.path) --home \(home.path) --server \(server.baseURL.absoluteString); echo 'chirp exited'; sleep 30"
            return try await Pane(tmux: tmux, command: command, width: 100, height: 60)
        }

        /// The server's unread count of bob's conversation with alice.
        func serverUnread() async throws -> Int? {
            try await bob.send(ChirpEndpoints.ListConversations()).items.first?.unreadCount
        }
    }

    /// The message numbers (`n123`) on a screen.
    static func numbers(_ screen: String) -> [Int] {
        screen.split(whereSeparator: \.isWhitespace).compactMap { word in
            word.hasPrefix("n") ? Int(word.dropFirst()) : nil
        }
    }

    /// Waits until the messages on the screen differ from those on `old` (a key has been
    /// handled and drawn; the status line's spinner does not count); the screen once drawn.
    static func change(of old: String, in pane: Pane, timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var current = await capture(pane)
        while historyLines(current) == historyLines(old), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            current = await capture(pane)
        }
        // A frame larger than the terminal's buffer reaches tmux in parts, further apart on a
        // busy machine: the screen once it has stayed the same for 100 ms.
        var unchanged = 0
        while unchanged < 2 {
            try await Task.sleep(for: .milliseconds(50))
            let next = await capture(pane)
            unchanged = next == current ? unchanged + 1 : 0
            current = next
        }
        return current
    }

    /// The screen, captured on a thread of its own: tmux runs as a child process that is waited
    /// for, and this test captures often, so it keeps that wait off the threads other tests'
    /// tasks run on.
    static func capture(_ pane: Pane) async -> String {
        let pane = UncheckedPane(pane: pane)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: pane.pane.screen) }
        }
    }

    /// A pane handed to another thread for one capture.
    struct UncheckedPane: @unchecked Sendable { let pane: Pane }

    /// The screen without its status line.
    static func historyLines(_ screen: String) -> [Substring] { Array(screen.split(separator: "\n").dropFirst()) }

    @Test(
        .enabled(
            if: TmuxEndToEndTests.tmuxPath != nil || TmuxEndToEndTests.required,
            "tmux is not installed here (CI installs it)"))
    func earlyHistoryThen600WhileAwayPagesBackToTheFirstWithNoNumberMissing() async throws {
        let tmux = try #require(TmuxEndToEndTests.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let scene = try await Scene()
        try await scene.aliceSends(1...5)

        // The first visit: five unread, as the server says; reading them.
        do {
            let pane = try await scene.app(tmux: tmux)
            var screen = try await pane.waitFor("● live", "alice (5)")
            #expect(screen.contains("alice (5)"), "the list counts 5 unread:\n\(screen)")
            try await pane.keys("Enter")
            // The conversation's own screen with its five lines: the list's preview shows n5 too.
            screen = try await pane.waitUntil { $0.contains("Chirp · bob · alice") && Self.numbers($0).count >= 5 }
            #expect(Self.numbers(screen).sorted() == [1, 2, 3, 4, 5], "\(screen)")
            try await pane.keys("Escape")
            screen = try await pane.waitFor("Conversations")
            try await pane.keys("C-c")
            _ = try await pane.waitFor("chirp exited")
        }

        // Away while 600 arrive (six of the server's pages of 100, about ten screens: the same
        // paging back as 2,000, a third of the time); back: the list counts them once, as the
        // server does.
        try await scene.aliceSends(6...605)
        let pane = try await scene.app(tmux: tmux)
        var screen = try await pane.waitFor("● live", "alice (600)")
        #expect(screen.contains("alice (600)"), "the list counts 600 unread:\n\(screen)")
        #expect(try await scene.serverUnread() == 600)
        try await pane.keys("Enter")
        // The conversation's own screen (the list's preview shows n605 too) once its newest
        // message is stored: the app may still be catching up on the 600 when it opens.
        screen = try await pane.waitFor("Chirp · bob · alice", "\n   n605\n")

        // PgUp pages back through everything, loading as it goes.
        var seen = Set(Self.numbers(screen))
        let started = ContinuousClock.now
        var presses = 0
        var selectedFromTheView = false
        // Until PgUp moves the view no more, with the first message shown (sent at once with
        // the other early ones, it need not be the oldest).
        // A view that stops moving before the first message fails the test after six presses
        // (each waits 5 s for a change) rather than pressing on for an hour.
        var stillPresses = 0
        while presses < 1_000 {
            try await pane.keys("PageUp")
            presses += 1
            let previous = screen
            screen = try await Self.change(of: screen, in: pane)
            let moved = Self.historyLines(screen) != Self.historyLines(previous)
            if !moved, seen.contains(1) { break }
            stillPresses = moved ? 0 : stillPresses + 1
            guard stillPresses < 6 else {
                Issue.record("PgUp stopped moving the view before the first message:\n\(screen)")
                break
            }
            seen.formUnion(Self.numbers(screen))
            if presses == 3 {
                // ↑ selects a message in view, not the newest; Esc leaves the view where it was.
                try await pane.keys("Up")
                let selecting = try await Self.change(of: screen, in: pane)
                let marked = selecting.split(separator: "\n").firstIndex { $0.hasPrefix("▸ ") }
                let shown = Set(Self.numbers(previous)).union(Self.numbers(screen))
                let lines = selecting.split(separator: "\n")
                let number = marked.flatMap {
                    lines.indices.contains($0 + 1) ? Self.numbers(String(lines[$0 + 1])).first : nil
                }
                selectedFromTheView = number.map { shown.contains($0) && $0 < 605 } ?? false
                #expect(selectedFromTheView, "↑ after PgUp selected n\(number ?? -1), not one in view:\n\(selecting)")
                try await pane.keys("Escape")
                screen = try await Self.change(of: selecting, in: pane)
                #expect(Set(Self.numbers(screen)) == Set(Self.numbers(selecting)), "Esc kept the view:\n\(screen)")
            }
        }
        let elapsed = ContinuousClock.now - started
        print("terminal: paged back through 605 messages in \(elapsed) with \(presses) PgUp (tmux, 100×60)")
        let missing = Set(1...605).subtracting(seen).sorted()
        #expect(missing.isEmpty, "missing \(missing.count): \(missing.prefix(40))")
        #expect(selectedFromTheView)

        try await pane.keys("Escape")
        _ = try await pane.waitFor("Conversations")
        #expect(try await scene.serverUnread() == 0)
        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
    }
}
