import ChirpTestSupport
import Foundation
import Testing

extension TmuxEndToEndTests {
    /// A group made in a real terminal, against a real server: alice (who follows and is
    /// followed by bob and carol) presses g, types the title, picks both with Space, creates
    /// it with Enter and sends into it; bob's and carol's `chirp` see the group and the message.
    @Test(.enabled(if: tmuxPath != nil || required, "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func aGroupIsCreatedFromTheNewGroupScreenAndSentInto() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        var homes: [String: URL] = [:]
        defer { for home in homes.values { try? FileManager.default.removeItem(at: home) } }
        func chirp(_ name: String, _ arguments: String..., input: String? = nil) async throws -> (status: Int32, output: String) {
            let home = homes[name] ?? ServerProcess.temporaryDirectory()
            homes[name] = home
            return try await runChirp(arguments + ["--server", server.baseURL.absoluteString, "--home", home.path], input: input)
        }
        for name in ["alice", "bob", "carol"] {
            #expect(try await chirp(name, "register", name, input: "\(name)-password\n").status == 0)
        }
        for name in ["bob", "carol"] {
            #expect(try await chirp(name, "follow", "alice").status == 0)
            #expect(try await chirp("alice", "follow", name).status == 0)
        }

        let client = "--server \(server.baseURL.absoluteString) --home \(homes["alice"]!.path)"
        let pane = try await Pane(tmux: tmux, command: "\(ServerProcess.binaryURL.path) app \(client); echo 'chirp exited'; sleep 30")
        var screen = try await pane.waitFor("Conversations", "● live", "g group", "carol")
        try await pane.type("g")
        screen = try await pane.waitFor("New group", "Title:", "[ ] bob", "[ ] carol")
        try await pane.type("Trip")
        try await pane.keys("Tab")
        try await pane.type(" ")
        try await pane.keys("Down")
        try await pane.type(" ")
        screen = try await pane.waitFor("[x] bob", "[x] carol", "2 picked")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("alice · Trip", "Ctrl-G members")
        try await pane.type("hello group")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("hello group", "✓")
        #expect(!screen.contains("sending"), "\(screen)")
        try await pane.keys("C-g")
        screen = try await pane.waitFor("Trip · 3 members", "alice (you)", "admin")

        for name in ["bob", "carol"] {
            let listed = try await chirp(name, "conversations")
            #expect(listed.status == 0 && listed.output.contains("Trip (--group") && listed.output.contains("alice: hello group"), "\(listed.output)")
        }
        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
        try await server.stop(signal: SIGTERM)
    }
}
