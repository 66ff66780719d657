import Foundation
import Testing

@testable import ChirpServer

/// An event stream's upgrade that cannot be granted: 400 for a token that is not valid, 503 with
/// `Retry-After` when the database cannot check it (a bench at 100,000 streams saw handshakes
/// refused 400 while the database was busy, which tells a client its session is bad).
@Suite("Event stream upgrades that are refused")
struct StreamUpgradeRefusalTests {
    @Test func aBadTokenIs400AndATokenTheDatabaseCannotCheckIs503() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("chirp.sqlite")
        let storage = try SQLiteStorage(url: file)
        let unknownToken = String(repeating: "a", count: 43)
        try await TestServer.run(storage: storage) { api in
            _ = try await api.register("alice")
            let bad = try await SilentWebSocket.connect(
                port: api.port, path: "/v1/events/stream?token=\(unknownToken)", timeout: .seconds(30))
            #expect(bad.head.hasPrefix("HTTP/1.1 400"), "\(bad.head)")

            try await SQLiteDamage.overwrite(tables: ["sessions"], of: storage, file: file)
            let unchecked = try await SilentWebSocket.connect(
                port: api.port, path: "/v1/events/stream?token=\(unknownToken)", timeout: .seconds(30))
            #expect(unchecked.head.hasPrefix("HTTP/1.1 503"), "\(unchecked.head)")
            #expect(unchecked.head.lowercased().contains("retry-after: 1"), "\(unchecked.head)")
            #expect(!unchecked.upgraded)
        }
    }

}
