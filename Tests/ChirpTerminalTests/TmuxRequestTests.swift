import ChirpTestSupport
import Foundation
import Testing

extension TmuxScreenTests {
    /// Message requests in a real terminal, against a real server: alice takes requests from
    /// everyone; bob, carol and dave (whom she does not follow) write to her. R lists them; a
    /// accepts bob's (his conversation joins the list), d declines carol's, p reports and x
    /// blocks dave (each asking first); the server agrees.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func requestsAreAcceptedDeclinedReportedAndBlockedFromTheirScreen() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let users = try await TmuxUsers(["alice", "bob", "carol", "dave"])
        defer { users.removeAll() }
        #expect(try await users.chirp("alice", "settings", "--message-requests", "everyone").status == 0)
        for name in ["dave", "carol", "bob"] {
            #expect(try await users.chirp(name, "send", "alice", "hello from \(name)").status == 0)
        }

        let pane = try await Pane(tmux: tmux, command: users.app("alice"))
        var screen = try await pane.waitFor("Conversations", "● live", "R requests")
        try await pane.type("R")
        screen = try await pane.waitFor("Message requests", "hello from bob", "hello from carol", "hello from dave")
        #expect(screen.contains("▸ bob"), "the newest first:\n\(screen)")

        try await pane.type("a")
        screen = try await pane.waitFor("Accepted bob's request")
        screen = try await pane.waitUntil { !$0.contains("hello from bob") }
        #expect(screen.contains("▸ carol"), "\(screen)")
        try await pane.type("d")
        screen = try await pane.waitFor("Declined carol's request")
        screen = try await pane.waitUntil { !$0.contains("hello from carol") && $0.contains("▸ dave") }

        try await pane.type("p")
        screen = try await pane.waitFor("Report dave to the server's operators")
        try await pane.type("1")
        screen = try await pane.waitFor("Reported dave")
        try await pane.type("x")
        screen = try await pane.waitFor("Block dave?")
        try await pane.type("y")
        screen = try await pane.waitFor("Blocked dave")
        screen = try await pane.waitUntil { !$0.contains("hello from dave") }
        #expect(screen.contains("No message requests"), "\(screen)")

        try await pane.keys("Escape")
        screen = try await pane.waitFor("Conversations", "hello from bob")
        #expect(
            !screen.contains("carol") && !screen.contains("dave"), "only the accepted one joins the list:\n\(screen)")
        let requests = try await users.chirp("alice", "requests")
        #expect(
            requests.status == 0 && requests.output.contains("no message requests"),
            "the server agrees: \(requests.output)")
        let blocks = try await users.chirp("alice", "blocks")
        #expect(blocks.output.contains("dave"), "\(blocks.output)")

        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
        try await users.server.stop(signal: SIGTERM)
    }
}
