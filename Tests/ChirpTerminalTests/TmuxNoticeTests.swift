import ChirpTestSupport
import Foundation
import Testing

extension TmuxScreenTests {
    /// The notice of a new message in a real terminal, against a real server: alice, in her
    /// conversation with carol, gets a message from bob. One line over the key hints names him
    /// with the text (the status line stays); a key takes it away at once (and does what it
    /// does), and the next one goes by itself after about five seconds; no bell rings until
    /// Settings turns it on, then one rings with the next notice.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func aMessageInAnotherConversationShowsANoticeUntilAKeyOrFiveSeconds() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let users = try await TmuxUsers(["alice", "bob", "carol"])
        defer { users.removeAll() }
        try await users.followEachOther("alice", and: ["bob", "carol"])

        let pane = try await Pane(tmux: tmux, command: users.app("alice"))
        var screen = try await pane.waitFor("Conversations", "● live", "carol")
        try await pane.type("n")
        _ = try await pane.waitFor("To whom?")
        try await pane.type("carol")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("alice · carol", "Esc back")

        #expect(try await users.chirp("bob", "send", "alice", "are you there?").status == 0)
        screen = try await pane.waitFor("New: bob: are you there?")
        #expect(screen.contains("alice · carol") && screen.contains("● live"), "the status line stays:\n\(screen)")
        let pressed = ContinuousClock.now
        try await pane.keys("Escape")
        screen = try await pane.waitUntil { !$0.contains("New: bob") && $0.contains("Conversations") }
        #expect(!screen.contains("New: bob"), "a key took the notice away:\n\(screen)")
        #expect(ContinuousClock.now - pressed < .seconds(4), "at once, not when it expired")

        #expect(try await users.chirp("bob", "send", "alice", "second one").status == 0)
        screen = try await pane.waitFor("New: bob: second one")
        let shown = ContinuousClock.now
        screen = try await pane.waitUntil(timeout: .seconds(20)) { !$0.contains("New: bob") }
        let shownFor = ContinuousClock.now - shown
        #expect(!screen.contains("New: bob"), "the notice went by itself:\n\(screen)")
        #expect(shownFor > .seconds(3) && shownFor < .seconds(15), "after about five seconds: \(shownFor)")
        #expect(try await bellFlag(pane) == "0", "no bell until Settings turns it on")

        try await pane.type("s")
        _ = try await pane.waitFor("Bell on new messages: off")
        for _ in 0..<3 { try await pane.keys("Down") }
        try await pane.keys("Enter")
        _ = try await pane.waitFor("▸ Bell on new messages: on")
        try await pane.keys("Escape")
        _ = try await pane.waitFor("Conversations")
        #expect(try await users.chirp("bob", "send", "alice", "ring ring").status == 0)
        screen = try await pane.waitFor("New: bob: ring ring")
        let deadline = ContinuousClock.now + .seconds(10)
        var flag = try await bellFlag(pane)
        while flag != "1", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            flag = try await bellFlag(pane)
        }
        #expect(flag == "1", "the bell rang with the notice")

        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
        try await users.server.stop(signal: SIGTERM)
    }

    /// Whether the pane's window heard a bell (tmux flags it in a session no client shows).
    private func bellFlag(_ pane: Pane) async throws -> String {
        try await pane.send(["display-message", "-p", "-t", "app", "#{window_bell_flag}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
