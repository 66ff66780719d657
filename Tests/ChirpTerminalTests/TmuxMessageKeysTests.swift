import ChirpTestSupport
import Foundation
import Testing

extension TmuxScreenTests {
    /// The message keys in a real terminal, on `chirp demo`: ↑ selects a message (marked ▸),
    /// + opens the reaction picker and 1 reacts 👍, Ctrl-A attaches a file by its path (shown with its type
    /// and size), Backspace drops it, Enter sends it (uploaded, then shown under the message),
    /// / opens the search screen.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func messageKeysSelectAttachAndSearch() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let folder = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes.txt")
        try Data(count: 2048).write(to: file)
        let pane = try await Pane(
            tmux: tmux, command: "\(ServerProcess.binaryURL.path) demo; echo 'chirp exited'; sleep 30")

        var screen = try await pane.waitFor("Conversations", "bob", "● live")
        try await pane.keys("n")
        _ = try await pane.waitFor("To whom?")
        try await pane.type("bob")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("Hi Alice! I'm bob")

        try await pane.keys("Up")
        screen = try await pane.waitFor("▸ bob", "+ react")
        #expect(screen.contains("▸ bob"), "the newest message is selected:\n\(screen)")
        try await pane.type("+")
        screen = try await pane.waitFor("React with: 1 👍")
        #expect(screen.contains("React with: 1 👍"), "the picker shows:\n\(screen)")
        try await pane.type("1")
        screen = try await pane.waitFor("   👍 1")
        #expect(screen.contains("   👍 1"), "the reaction shows under the message:\n\(screen)")
        try await pane.keys("Escape")
        screen = try await pane.waitFor("Ctrl-A attach")

        try await pane.keys("C-a")
        _ = try await pane.waitFor("Attach file:")
        try await pane.type(file.path)
        try await pane.keys("Enter")
        screen = try await pane.waitFor("📎 notes.txt · text/plain · 2 KB")
        #expect(screen.contains("📎 notes.txt · text/plain · 2 KB"), "the attachment shows over the input:\n\(screen)")
        try await pane.keys("BSpace")
        screen = try await pane.waitUntil { $0.contains("Ctrl-A attach") && !$0.contains("📎 notes.txt") }
        #expect(!screen.contains("📎 notes.txt"), "Backspace dropped it:\n\(screen)")
        // Attached again and sent alone: it uploads and shows under the message as sent.
        try await pane.keys("C-a")
        _ = try await pane.waitFor("Attach file:")
        try await pane.type(file.path)
        try await pane.keys("Enter")
        _ = try await pane.waitFor("📎 notes.txt · text/plain · 2 KB")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("  📎 notes.txt · text/plain · 2 KB")
        let deadline = ContinuousClock.now + .seconds(30)
        while screen.contains("to upload") || screen.contains("… sending"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            screen = pane.screen
        }
        #expect(
            screen.contains("  📎 notes.txt · text/plain · 2 KB") && !screen.contains("to upload"),
            "sent with its attachment:\n\(screen)")

        try await pane.type("/")
        screen = try await pane.waitFor("Search messages", "in the conversation with bob")
        #expect(screen.contains("in the conversation with bob"), "search opened over this conversation:\n\(screen)")
        try await pane.keys("Escape")
        _ = try await pane.waitFor("Ctrl-A attach")
        try await pane.keys("C-c")
        screen = try await pane.waitFor("chirp exited")
        #expect(screen.contains("Demo over"))
    }
}
