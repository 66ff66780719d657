import ChirpClient
import ChirpTestSupport
import Foundation
import Testing

extension TmuxScreenTests {
    /// A group made in a real terminal, against a real server: alice (who follows and is
    /// followed by bob and carol) presses g, types the title, picks both with Space, creates
    /// it with Enter and sends into it; bob's and carol's `chirp` see the group and the message.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func aGroupIsCreatedFromTheNewGroupScreenAndSentInto() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let users = try await TmuxUsers(["alice", "bob", "carol"])
        defer { users.removeAll() }
        try await users.followEachOther("alice", and: ["bob", "carol"])

        let pane = try await Pane(tmux: tmux, command: users.app("alice"))
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
            let listed = try await users.chirp(name, "conversations")
            #expect(
                listed.status == 0 && listed.output.contains("Trip (--group")
                    && listed.output.contains("alice: hello group"), "\(listed.output)")
        }
        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
        try await users.server.stop(signal: SIGTERM)
    }
}

/// The users of a terminal test against one fresh server: each registered with its own
/// `--home`, `chirp` run as any of them, the app's pane command; `removeAll()` cleans up.
final class TmuxUsers: Sendable {
    let server: ServerProcess
    let homes: [String: URL]

    init(_ names: [String]) async throws {
        server = try await ServerProcess()
        homes = Dictionary(uniqueKeysWithValues: names.map { ($0, ServerProcess.temporaryDirectory()) })
        // Setup, in this process: the `AccountManager.register` that `chirp register` runs, on
        // the same home, without a `chirp` process per user.
        for name in names {
            _ = try await accounts(name).register(name, password: "\(name)-password")
        }
    }

    /// `name`'s account manager on their home, as the `chirp` commands open it.
    func accounts(_ name: String) throws -> AccountManager {
        try AccountManager(home: homes[name]!, serverURL: server.baseURL)
    }

    /// Runs `chirp ARGUMENTS` as `name`.
    func chirp(_ name: String, _ arguments: String..., input: String? = nil) async throws -> (
        status: Int32, output: String
    ) {
        try await runChirp(
            arguments + ["--server", server.baseURL.absoluteString, "--home", homes[name]!.path], input: input)
    }

    /// `name` and each of `others` follow each other (so they may message and make groups).
    func followEachOther(_ name: String, and others: [String]) async throws {
        // Setup: each follow is one request through the user's own session, sent in this
        // process rather than by a `chirp follow` process.
        for other in others {
            try await accounts(other).currentSession().follow(name)
            try await accounts(name).currentSession().follow(other)
        }
    }

    /// The pane command running the app as `name` (then saying it exited).
    func app(_ name: String) -> String {
        "\(ServerProcess.binaryURL.path) app --server \(server.baseURL.absoluteString) --home \(homes[name]!.path); echo 'chirp exited'; sleep 30"
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: server.dataDirectory)
        for home in homes.values { try? FileManager.default.removeItem(at: home) }
    }
}
