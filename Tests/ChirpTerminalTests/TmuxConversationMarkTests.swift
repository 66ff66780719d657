import ChirpTestSupport
import Foundation
import Testing

extension TmuxEndToEndTests {
    /// Pin and mute keys in a real terminal, on `chirp demo`: with bob's conversation selected,
    /// p pins it (📌), m mutes it (🔕), each again undoes it, and the help lists them.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func pinAndMuteKeysMarkTheSelectedConversation() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let pane = try await Pane(
            tmux: tmux, command: "\(ServerProcess.binaryURL.path) demo; echo 'chirp exited'; sleep 30")

        var screen = try await pane.waitFor("Conversations", "bob", "● live")
        // bob's conversation, its preview the seeded history's last message; select it. (This
        // waited for the greeting, which the list never shows: 30 s, then on.)
        _ = try await pane.waitFor("bob: Try the timeline")
        for _ in 0..<10 where !pane.screen.contains("▸ bob") { try await pane.keys("j") }
        screen = try await pane.waitFor("▸ bob")

        try await pane.type("p")
        screen = try await pane.waitFor("▸ 📌bob")
        #expect(screen.contains("▸ 📌bob"), "pinned:\n\(screen)")
        try await pane.type("m")
        screen = try await pane.waitFor("🔕")
        #expect(screen.contains("▸ 📌bob") && screen.contains("🔕"), "pinned and muted:\n\(screen)")
        try await pane.type("p")
        screen = try await pane.waitUntil { !$0.contains("📌") && $0.contains("🔕") }
        try await pane.type("m")
        screen = try await pane.waitUntil { !$0.contains("📌") && !$0.contains("🔕") && $0.contains("bob") }
        #expect(!screen.contains("📌") && !screen.contains("🔕"), "both undone:\n\(screen)")

        try await pane.type("?")
        screen = try await pane.waitFor("pin, mute (again: undo)")
        try await pane.keys("Escape")
        _ = try await pane.waitFor("Conversations")
        try await pane.keys("C-c")
        screen = try await pane.waitFor("chirp exited")
        #expect(screen.contains("Demo over"))
    }
}
