import ChirpClient
import ChirpModules
import Foundation
import Testing

/// The client's start-up runs as named steps through the kit's Initiator, in dependency order,
/// and a failing step stops what depends on it.
@Suite("Client start-up")
struct StartupTests {
    static func home() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chirp-startup-\(UUID().uuidString)")
    }

    @Test func stepsRunInDependencyOrder() async throws {
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let context = try AppContext(root: home)
        try context.switchUser(to: "alice").saveToken("a-token")
        // No server is needed: the stored session opens offline.
        let app = try ChirpClientApp(home: home, server: URL(string: "http://127.0.0.1:9")!)
        let report = await app.start(sync: .none)
        #expect(report.steps == [.database, .session, .logReporter, .sync])
        #expect(report.failure == nil)
        #expect(report.session?.username == "alice" && app.session?.username == "alice")
        #expect(
            FileManager.default.fileExists(atPath: context.currentUser!.databaseURL.path), "the database step opened it"
        )
    }

    @Test func nobodyLoggedInIsNoFailure() async throws {
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try ChirpClientApp(home: home, server: URL(string: "http://127.0.0.1:9")!)
        let report = await app.start(sync: .none)
        #expect(report.session == nil && report.failure == nil)
        #expect(report.steps == [.database, .session, .logReporter, .sync])
    }

    @Test func aFailingStepSkipsTheStepsAfterItAndSaysWhatToDo() async throws {
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let user = try AppContext(root: home).switchUser(to: "alice")
        try user.saveToken("a-token")
        // A directory where the database file should be: SQLite cannot open it.
        try FileManager.default.createDirectory(at: user.databaseURL, withIntermediateDirectories: true)
        let app = try ChirpClientApp(home: home, server: URL(string: "http://127.0.0.1:9")!)
        let report = await app.start(sync: .catchUp)
        #expect(report.steps == [.database], "nothing after the database step ran")
        let failure = try #require(report.failure)
        #expect(failure.step == .database)
        #expect(failure.description.hasPrefix("Opening the local database failed: "), "\(failure)")
        #expect(failure.description.contains("delete this user's directory and log in again"))
        #expect(report.session == nil && app.session == nil)
    }

    @Test func syncFailureKeepsTheSession() async throws {
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        try AppContext(root: home).switchUser(to: "alice").saveToken("a-token")
        let app = try ChirpClientApp(home: home, server: URL(string: "http://127.0.0.1:9")!)
        let report = await app.start(sync: .catchUp)  // nothing listens on port 9
        #expect(report.steps == [.database, .session, .logReporter, .sync])
        #expect(report.failure?.step == .sync)
        #expect(report.session?.username == "alice", "offline first: the session is there without the server")
    }
}
