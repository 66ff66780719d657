import ChirpClient
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Testing

/// The client's router, as the terminal app sees it: built by `ChirpClientApp` from its modules.
enum ClientRoutes {
    /// A client on a fresh directory (resolving links needs no server).
    static func app() throws -> ChirpClientApp {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-routes-\(UUID().uuidString)")
        return try ChirpClientApp(home: home, server: URL(string: "http://127.0.0.1:9")!)
    }
}

/// Every `chirp://` route has one owner, and the terminal app and `chirp open` resolve links
/// through that one router.
@MainActor
@Suite("Client routes")
struct ClientRouteTests {
    @Test func eachPatternIsRegisteredOnceAndBothFrontEndsResolveTheSameRoutes() async throws {
        let app = try ClientRoutes.app()
        let patterns = app.router.patterns
        #expect(Set(patterns).count == patterns.count)
        #expect(
            Set(patterns) == [
                "chirp://me", "chirp://conversations", "chirp://conversation/:username", "chirp://timeline",
                "chirp://user/:username",
                "chirp://compose", "chirp://settings", "chirp://help",
            ])
        for pattern in patterns {
            #expect(throws: (any Error).self, "\(pattern) has an owner already") {
                try app.router.register(pattern) { _ in "again" }
            }
        }

        // The terminal app's coordinator registers nothing and maps the router's destinations.
        let coordinator = AppCoordinator(router: app.router)
        let cases: [(String, ClientDestination, AppFeature.Action?)] = [
            ("chirp://conversations", .conversations, .navigate(.conversations)),
            ("chirp://conversation/bob?limit=5", .conversation(peer: "bob", limit: 5), .navigate(.conversation("bob"))),
            ("chirp://timeline", .timeline(limit: 20), .navigate(.timeline)),
            ("chirp://compose", .compose, .navigate(.compose)),
            ("chirp://settings?theme=light", .settings(changes: ["theme": "light"]), .navigate(.settings)),
            ("chirp://help", .help, .navigate(.help)),
            ("chirp://user/carol", .user("carol"), nil),  // no screen in the app: chirp open prints it
            ("chirp://me", .me, nil),
        ]
        for (link, destination, action) in cases {
            let url = URL(string: link)!
            #expect(try await app.destination(for: url) == destination, "chirp open resolves \(link)")
            #expect(await coordinator.action(for: url) == action, "the app resolves \(link)")
        }
        #expect(try await app.destination(for: URL(string: "chirp://nowhere")!) == nil)
        #expect(await coordinator.action(for: URL(string: "chirp://nowhere")!) == nil)
    }
}

/// A start-up step that fails becomes the error banner, naming the step and what to do.
@MainActor
@Suite("Start-up banner")
struct StartupBannerTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    @Test func aFailedStartupStepIsTheBanner() async {
        var client = AppClient.failing
        client.restore = { throw StartupFailure(step: .database, error: DiskFull()) }
        let store = TestStore(initialState: AppState(now: Fixtures.start), reducer: AppFeature(client: client))
        await store.send(.start)
        let text =
            "Opening the local database failed: disk I/O error — free some disk space, or delete this user's directory and log in again."
        await store.receive(.startFailed(text)) {
            $0.screen = .login
            $0.banner = .init(text, isError: true)
        }
        await store.finish()
    }

    @Test func anExpiredSessionAtStartupSaysToLogInAgain() async {
        var client = AppClient.failing
        client.restore = { throw StartupFailure(step: .session, error: AccountError.sessionExpired("alice")) }
        let store = TestStore(initialState: AppState(now: Fixtures.start), reducer: AppFeature(client: client))
        await store.send(.start)
        let text = AccountError.sessionExpired("alice").description
        await store.receive(.startFailed(text)) {
            $0.screen = .login
            $0.banner = .init(text, isError: true)
        }
        await store.finish()
    }
}
