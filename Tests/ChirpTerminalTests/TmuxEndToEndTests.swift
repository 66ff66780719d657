import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct TmuxError: Error, CustomStringConvertible {
    var description: String
}

/// The other half of the tmux tests (groups, message keys, notices, requests: in extensions), a
/// serialized suite of its own that runs beside `TmuxEndToEndTests`: as one suite of nine tests
/// one after another it was the last to finish in a full run.
@Suite("Terminal app under tmux: screens", .serialized)
struct TmuxScreenTests {
    typealias Pane = TmuxEndToEndTests.Pane
    static let tmuxPath = TmuxEndToEndTests.tmuxPath
    static let required = TmuxEndToEndTests.required
}

/// `chirp demo` driven like a person would, in a real terminal (tmux), asserting on what the
/// screen shows. In CI tmux must be there (`.ci/run` installs it); elsewhere the test is
/// skipped, saying why, when tmux is missing.
@Suite("Terminal app under tmux", .serialized)
struct TmuxEndToEndTests {
    static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let required = ProcessInfo.processInfo.environment["CI"] != nil

    /// One tmux server of its own, one session running a command.
    ///
    /// The server runs in the foreground (`-D`) as this process's child, so it ends with the
    /// test process even when that crashes, and the app in its pane with it (the pane's
    /// terminal hangs up). A daemonized server outlived a crashed run with `chirp demo` inside.
    final class Pane: Sendable {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString.prefix(8))"
        ).path
        let tmux: String
        private let server: SpawnedProcess

        /// Starts the server and the session. Every wait here (for the socket, for each tmux
        /// client) runs off the cooperative pool: swift-testing runs all tests on its two
        /// threads here, and a test blocking them held every other test's timers (a 200 ms
        /// deadline fired after 30 s while tmux tests ran on a loaded machine).
        init(tmux: String, command: String, width: Int = 100, height: Int = 30) async throws {
            self.tmux = tmux
            let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(devNull) }
            server = try SpawnedProcess(
                executable: URL(fileURLWithPath: tmux), arguments: ["-S", socket, "-D"],
                environment: ProcessInfo.processInfo.environment, output: devNull)
            // A client finding no server would start a daemon of its own: wait for the socket.
            let deadline = ContinuousClock.now + .seconds(60)
            while !FileManager.default.fileExists(atPath: socket) {
                guard server.isRunning, ContinuousClock.now < deadline else {
                    throw TmuxError(
                        description:
                            "the tmux server did not start (\(server.isRunning ? "no socket after 60 s" : "it exited"))"
                    )
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await send(["new-session", "-d", "-s", "app", "-x", String(width), "-y", String(height), command])
        }

        /// `run` on a dispatch thread, so the tmux client's wait blocks no thread of the pool.
        @discardableResult
        func send(_ arguments: [String]) async throws -> String {
            let outcome: Result<String, TmuxError> = await BlockingCall.run {
                do { return .success(try self.run(arguments)) } catch let error as TmuxError {
                    return .failure(error)
                } catch {
                    return .failure(TmuxError(description: "\(error)"))
                }
            }
            return try outcome.get()
        }

        /// Runs a tmux client command against this pane's server and waits for it; returns what
        /// it printed.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let outputPath = "\(socket)-\(UUID().uuidString).out"
            defer { try? FileManager.default.removeItem(atPath: outputPath) }
            let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard output >= 0 else { throw TmuxError(description: "cannot create \(outputPath)") }
            defer { close(output) }
            do {
                let process = try SpawnedProcess(
                    executable: URL(fileURLWithPath: tmux), arguments: ["-S", socket] + arguments,
                    environment: ProcessInfo.processInfo.environment, output: output)
                process.waitUntilExit()
            } catch {
                throw TmuxError(description: "cannot start tmux: \(error)")
            }
            return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }

        var screen: String { (try? run(["capture-pane", "-p", "-t", "app"])) ?? "" }

        func keys(_ keys: String...) async throws { try await send(["send-keys", "-t", "app"] + keys) }
        func type(_ text: String) async throws { try await send(["send-keys", "-t", "app", "-l", text]) }

        /// Waits until the screen contains all of `texts`; returns the screen.
        func waitFor(_ texts: String..., timeout: Duration = .seconds(30)) async throws -> String {
            try await waitUntil(timeout: timeout) { screen in texts.allSatisfy(screen.contains) }
        }

        /// Waits until `condition` holds for the screen; returns the screen. For a change that
        /// removes something, wait for its absence: text still shown from before the keys
        /// were read would satisfy a wait for what stays.
        func waitUntil(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            // Each look runs a tmux client and waits for it: off the cooperative pool.
            var current = await BlockingCall.run { self.screen }
            while !condition(current), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                current = await BlockingCall.run { self.screen }
            }
            return current
        }

        /// Ends the server on a dispatch thread (the pane's app gets the terminal's hang-up), so
        /// a test letting go of its pane blocks no thread of the pool while tmux winds down.
        deinit {
            let (tmux, socket, server) = (tmux, socket, server)
            DispatchQueue.global().async {
                let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if let client = try? SpawnedProcess(
                    executable: URL(fileURLWithPath: tmux), arguments: ["-S", socket, "kill-server"],
                    environment: ProcessInfo.processInfo.environment, output: devNull)
                {
                    client.waitUntilExit(killingAfter: .seconds(5))
                }
                close(devNull)
                let deadline = ContinuousClock.now + .seconds(5)
                while server.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                server.signal(SIGKILL)
                server.waitUntilExit()
                try? FileManager.default.removeItem(atPath: socket)
            }
        }
    }

    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func theDemoFromConversationToTweetToLogout() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let binary = ServerProcess.binaryURL.path
        let pane = try await Pane(tmux: tmux, command: "\(binary) demo; echo 'chirp exited'; sleep 30")

        var screen = try await pane.waitFor("Conversations", "bob", "carol", "● live")
        #expect(screen.contains("Conversations") && screen.contains("● live"), "the app opened as alice:\n\(screen)")

        try await pane.keys("n")
        screen = try await pane.waitFor("To whom?")
        try await pane.type("bob")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("Hi Alice! I'm bob")
        #expect(screen.contains("Hi Alice! I'm bob"), "the conversation with bob opened:\n\(screen)")

        try await pane.type("hello from tmux")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("You said “hello from tmux”")
        #expect(screen.contains("You said “hello from tmux”"), "the bot answered:\n\(screen)")

        try await pane.keys("Escape")
        screen = try await pane.waitFor("Conversations")
        try await pane.keys("t")
        screen = try await pane.waitFor("Timeline", "@carol")
        #expect(screen.contains("Timeline") && screen.contains("@carol"), "the timeline opened:\n\(screen)")
        try await pane.keys("c")
        screen = try await pane.waitFor("New tweet")
        try await pane.type("tweeting from tmux")
        screen = try await pane.waitFor("18/280")
        #expect(screen.contains("18/280"), "the live count:\n\(screen)")
        try await pane.keys("Enter")
        screen = try await pane.waitUntil {
            $0.contains("Timeline") && $0.contains("tweeting from tmux") && !$0.contains("New tweet")
        }
        #expect(
            screen.contains("tweeting from tmux") && !screen.contains("New tweet"),
            "the tweet is on the timeline:\n\(screen)")

        try await pane.keys("L")
        screen = try await pane.waitFor("Username", "Password")
        #expect(screen.contains("Log in") && screen.contains("Username"), "logged out to the login screen:\n\(screen)")

        try await pane.keys("C-c")
        screen = try await pane.waitFor("chirp exited")
        #expect(screen.contains("Demo over"), "the app quit and the demo cleaned up:\n\(screen)")
    }

    /// The terminal app against a server whose first sync request (`GET /v1/events`) fails
    /// with a 500: the app carries on (the read is retried), nothing is printed over its
    /// screen, and the failure reaches the server's error reports, readable with
    /// `chirp admin logs`.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func aServerFailureDuringSyncIsReported() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let server = try await ServerProcess(arguments: ["--fail-once", "GET:/v1/events"])
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path]
        let registered = try await runChirp(["register", "alice"] + client, input: "alice-password\n")
        #expect(registered.status == 0, "\(registered.output)")

        let binary = ServerProcess.binaryURL.path
        let pane = try await Pane(
            tmux: tmux, command: "\(binary) app \(client.joined(separator: " ")); echo 'chirp exited'; sleep 30")
        let screen = try await pane.waitFor("Conversations", "● live")
        #expect(screen.contains("● live"), "the app synced after the failed request was retried:\n\(screen)")

        var reported: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let admin = try await runChirp([
                "admin", "logs", "--data-dir", server.dataDirectory.path, "--level", "error",
            ])
            reported = admin.output.split(separator: "\n").map(String.init).filter {
                $0.contains(" ERROR alice [chirp.network] ")
            }
            if !reported.isEmpty { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(reported.count == 1 && reported[0].contains("500"), "the 500 is in chirp admin logs: \(reported)")
        let after = pane.screen
        #expect(
            !after.contains("ERROR") && !after.contains("chirp.network"), "no log line drawn over the app:\n\(after)")

        try await pane.keys("C-c")
        let exited = try await pane.waitFor("chirp exited")
        #expect(exited.contains("chirp exited"))
        try await server.stop(signal: SIGTERM)
    }

    /// The account screens against a real server: from Settings, the sessions (the other
    /// device's ended after a `y`), then deleting the account, back to the login screen.
    @Test(
        .enabled(
            if: tmuxPath != nil || required,
            "tmux is not installed here (CI installs it); skipping the terminal end-to-end test"))
    func sessionsAndAccountDeletionFromSettings() async throws {
        let tmux = try #require(Self.tmuxPath, "tmux is required in CI: .ci/run installs it")
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        let laptop = ServerProcess.temporaryDirectory()
        defer { for directory in [home, laptop] { try? FileManager.default.removeItem(at: directory) } }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path]
        let laptopClient = ["--server", server.baseURL.absoluteString, "--home", laptop.path]
        #expect(try await runChirp(["register", "alice"] + client, input: "alice-password\n").status == 0)
        #expect(try await runChirp(["login", "alice"] + laptopClient, input: "alice-password\n").status == 0)

        let binary = ServerProcess.binaryURL.path
        let pane = try await Pane(
            tmux: tmux, command: "\(binary) app \(client.joined(separator: " ")); echo 'chirp exited'; sleep 30")
        var screen = try await pane.waitFor("Conversations", "● live")
        try await pane.keys("s")
        screen = try await pane.waitFor("Settings", "Delete account")
        // Down past the themes and the bell.
        for _ in 0..<4 { try await pane.keys("Down") }
        try await pane.keys("Enter")
        screen = try await pane.waitFor("Sessions", "(this device)")
        #expect(screen.components(separatedBy: "last used").count == 3, "two sessions listed:\n\(screen)")
        // The newest first: the laptop (logged in after this device registered) is selected.
        try await pane.keys("x")
        screen = try await pane.waitFor("End the session of")
        try await pane.keys("y")
        screen = try await pane.waitFor("Session ended")
        #expect(screen.components(separatedBy: "last used").count == 2, "one session left:\n\(screen)")
        let ended = try await runChirp(["whoami"] + laptopClient)
        #expect(ended.status != 0, "the laptop's token stopped working: \(ended.output)")

        try await pane.keys("Escape")
        screen = try await pane.waitFor("Settings", "Delete account")
        for _ in 0..<2 { try await pane.keys("Down") }
        try await pane.keys("Enter")
        screen = try await pane.waitFor("cannot be undone")
        try await pane.type("alice-password")
        screen = try await pane.waitFor("••••••••••••••")
        #expect(!screen.contains("alice-password"), "the password is not echoed:\n\(screen)")
        try await pane.keys("Enter")
        screen = try await pane.waitFor("for good?")
        try await pane.keys("y")
        screen = try await pane.waitFor("Username", "Account deleted")
        #expect(screen.contains("Account deleted"), "back to the login screen:\n\(screen)")
        let gone = try await runChirp(["login", "alice"] + laptopClient, input: "alice-password\n")
        #expect(gone.status != 0, "the account is gone: \(gone.output)")

        try await pane.keys("C-c")
        _ = try await pane.waitFor("chirp exited")
        try await server.stop(signal: SIGTERM)
    }
}
