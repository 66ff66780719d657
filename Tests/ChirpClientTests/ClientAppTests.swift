import ChirpClient
import ChirpModels
import ChirpModules
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The client assembled from modules, opening deep links against a real server.
@Suite("Client app from modules")
struct ClientAppTests {
    @Test func deepLinksOpenScreensThroughModules() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let alice = ChirpAPIClient(baseURL: server.baseURL)
        let bob = ChirpAPIClient(baseURL: server.baseURL)
        try await alice.register("alice", password: "alice-password", displayName: "Alice A")
        try await bob.register("bob", password: "bob-password")
        _ = try await bob.send(ChirpEndpoints.Follow("alice"))
        _ = try await alice.send(ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "1", text: "Hi Bob!"))
        _ = try await alice.send(ChirpEndpoints.PostTweet(clientTweetId: "t", text: "hello world"))
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }

        let app = try ChirpClientApp(home: home, server: server.baseURL, token: bob.token)
        #expect(app.modules.loadedModules == [.accounts, .messaging, .timeline, .settings])
        func open(_ link: String, in app: ChirpClientApp) async throws -> String {
            String(describing: try await app.open(URL(string: link)!))
        }
        let conversationScreen = try await open("chirp://conversation/alice", in: app)
        #expect(conversationScreen.hasSuffix("alice: Hi Bob!  "), "\(conversationScreen)")
        #expect(try await open("chirp://conversations", in: app) == "alice (1 unread): alice: Hi Bob!")
        #expect(try await open("chirp://timeline", in: app).hasSuffix("@alice: hello world"))
        #expect(
            try await open("chirp://user/alice", in: app).hasPrefix(
                "Alice A @alice · 1 followers · following 0 · you follow"))
        #expect(try await open("chirp://me", in: app).hasPrefix("bob (bob)"))
        #expect(try await open("chirp://settings?theme=dark", in: app) == "theme = dark")
        let unknown = try await app.open(URL(string: "chirp://nowhere")!)
        #expect((unknown as? RouteNotFound)?.known.contains("chirp://timeline") == true)

        // The next launch, without a token, restores bob's context and session.
        let again = try ChirpClientApp(home: home, server: server.baseURL)
        #expect(again.context.currentUser?.username == "bob")
        #expect(try await open("chirp://settings", in: again) == "theme = dark")
        // Alice's token switches the context to alice; her settings are her own.
        let asAlice = try ChirpClientApp(home: home, server: server.baseURL, token: alice.token)
        #expect(try await open("chirp://settings", in: asAlice).hasPrefix("No settings for alice"))
        #expect(try await open("chirp://conversation/bob", in: asAlice).contains("alice: Hi Bob! ✓"))
        try asAlice.context.logout()
        await #expect(throws: AccountError.notLoggedIn) {
            try await ChirpClientApp(home: home, server: server.baseURL).open(URL(string: "chirp://timeline")!)
        }

        // modules.json turns the timeline off: its links fall through to the fallback.
        try Data(#"{"modules": [{"id": "timeline", "enabled": false}]}"#.utf8).write(
            to: home.appendingPathComponent("modules.json"))
        let trimmed = try ChirpClientApp(home: home, server: server.baseURL, token: bob.token)
        #expect(trimmed.modules.loadedModules == [.accounts, .messaging, .settings])
        #expect(try await trimmed.open(URL(string: "chirp://timeline")!) is RouteNotFound)
        try await server.stop(signal: SIGTERM)
    }

    @Test func chirpOpenPrintsTheScreen() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let carol = ChirpAPIClient(baseURL: server.baseURL)
        try await carol.register("carol", password: "carol-password")
        _ = try await carol.send(ChirpEndpoints.PostTweet(clientTweetId: "x", text: "from the CLI"))
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        func chirp(_ arguments: [String]) async throws -> (Int32, String) {
            try await runChirp(arguments + ["--server", server.baseURL.absoluteString, "--home", home.path])
        }
        let first = try await chirp(["open", "chirp://timeline", "--token", carol.token!])
        #expect(first.0 == 0 && first.1.contains("@carol: from the CLI"), "\(first.1)")
        let remembered = try await chirp(["open", "chirp://user/carol"])
        #expect(remembered.0 == 0 && remembered.1.contains("@carol: from the CLI"), "\(remembered.1)")
        let unknown = try await chirp(["open", "chirp://nowhere"])
        #expect(unknown.0 != 0 && unknown.1.contains("try one of"), "\(unknown.1)")
        try await server.stop(signal: SIGTERM)
    }
}
