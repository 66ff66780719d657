import ChirpClient
import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What others wrote (a client's log entries, messages, tweets, group titles, report notes)
/// printed by the real `chirp` commands against a real server: every control character shown
/// as `\u{…}`, never sent to the terminal, and no line of it passing for one of the program's.
@Suite("What others wrote reaches the terminal escaped", .serialized)
struct TerminalEscapingTests {
    /// Clears the screen, then starts a line of its own.
    static let forged = "\u{1B}[2J\r\nFAKE"
    /// `forged` as the commands must print it.
    static let shown = "\\u{1B}[2J\\u{D}\\u{A}FAKE"

    /// Whether `output` holds no character a terminal acts on (other than the line feeds that
    /// end the program's lines) and no line that starts with the forged text.
    static func isSafe(_ output: String) -> Bool {
        !output.unicodeScalars.contains { $0 != "\n" && TerminalText.isEscaped($0) }
            && !output.split(separator: "\n").contains { $0.hasPrefix("FAKE") }
    }

    @Test func adminLogsShowsWhatAClientSentEscaped() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let api = ChirpAPIClient(baseURL: server.baseURL)
        try await api.register("mallory", password: "mallory-password")
        let entry = LogRecord(
            level: "error", message: "boom " + Self.forged, timestamp: "2026-11-22T10:15:30.123Z",
            metadata: ["screen": Self.forged],
            source: "app\u{202E}")
        _ = try await api.send(ChirpEndpoints.UploadLogs(LogUpload(batchId: "forged", entries: [entry])))

        let admin = try await runChirp(["admin", "logs", "--data-dir", server.dataDirectory.path])
        #expect(admin.status == 0, "\(admin.output)")
        #expect(
            admin.output.contains(" ERROR mallory [app\\u{202E}] boom \(Self.shown) screen=\(Self.shown)"),
            "\(admin.output)")
        #expect(
            !admin.output.unicodeScalars.contains("\u{1B}") && !admin.output.unicodeScalars.contains("\r"),
            "\(admin.output)")
        #expect(Self.isSafe(admin.output), "\(admin.output)")
        try await server.stop(signal: SIGTERM)
    }

    @Test func clientAndAdminCommandsShowMessagesTweetsTitlesAndNotesEscaped() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "mallory"], server: server.baseURL)
        let (alice, mallory) = (homes["alice"]!, homes["mallory"]!)
        let watch = try alice.start("watch")
        #expect(try await watch.waitFor { $0.contains("watch: live") })

        #expect(try await mallory.chirp("send", "alice", "hi " + Self.forged).status == 0)
        #expect(try await mallory.chirp("tweet", "news " + Self.forged).status == 0)
        #expect(try await mallory.chirp("group", "create", "club " + Self.forged, "alice").status == 0)
        #expect(
            try await alice.chirp("report", "mallory", "--reason", "abuse", "--note", "note " + Self.forged).status == 0
        )
        #expect(try await watch.waitFor { $0.contains("club ") })

        let printed: [(command: String, result: (status: Int32, output: String))] = [
            ("messages", try await alice.chirp("messages", "mallory")),
            ("conversations", try await alice.chirp("conversations")),
            ("search", try await alice.chirp("search", "hi")),
            ("timeline", try await alice.chirp("timeline")),
            ("group list", try await alice.chirp("group", "list")),
            ("open", try await alice.chirp("open", "chirp://conversation/mallory")),
            ("watch", (0, watch.output)),
            ("admin reports", try await runChirp(["admin", "reports", "--data-dir", server.dataDirectory.path])),
        ]
        for (command, result) in printed {
            #expect(result.status == 0, "\(command): \(result.output)")
            #expect(result.output.contains(Self.shown), "\(command): \(result.output)")
            #expect(Self.isSafe(result.output), "\(command): \(result.output)")
        }
        #expect(printed.last?.result.output.contains("note=\"note \(Self.shown)\"") == true)
        await watch.stop()
        try await server.stop(signal: SIGTERM)
    }
}
