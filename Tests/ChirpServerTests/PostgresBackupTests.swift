import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The PostgreSQL backup of docs/operating.md, run as written: `pg_dump` while the server
/// runs, then the media directory; `pg_restore` into a new database, the media copied back.
@Suite("PostgreSQL backup with pg_dump", .serialized)
struct PostgresBackupTests {
    static let required = ProcessInfo.processInfo.environment["CI"] != nil
    static let available = TestDatabase.postgresAdminURL != nil && tool("pg_dump") != nil && tool("pg_restore") != nil

    @Test(
        .enabled(if: available || required, "needs CHIRP_TEST_POSTGRES_URL and pg_dump/pg_restore (CI provides both)"))
    func aDumpAndTheMediaDirectoryRestoreEveryMessageAndMediaItem() async throws {
        let source = try #require(
            TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI: .ci/run sets it")
        let target = try #require(TestDatabase.freshPostgresSettings())
        try await TestDatabase.create(source)
        try await TestDatabase.create(target)
        let (media, backup, restoredMedia) = (
            ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory()
        )
        defer {
            for directory in [media, backup, restoredMedia] { try? FileManager.default.removeItem(at: directory) }
        }

        let server = try await ServerProcess(arguments: ["--database", source.url, "--media-dir", media.path])
        let alice = try await server.api.register("alice")
        let bob = try await server.api.register("bob")
        try await server.api.follow(bob, "alice")
        var items: [Media: Data] = [:]
        for seed in 0..<2 { try await BackupProcessTests.send(server.api, alice, seed: seed, into: &items) }
        var sent: Set<String> = []
        for index in 0..<20 {
            let id = "text-\(index)"
            #expect(try await server.api.sendMessage(alice, to: "bob", "hello \(index)", clientId: id).status == 201)
            sent.insert(id)
        }

        // While the server runs: the dump first, then the media (blobs precede their rows).
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let dump = backup.appendingPathComponent("chirp.dump")
        try await Self.run("pg_dump", ["--format=custom", "--file=\(dump.path)", source.url])
        try FileManager.default.copyItem(at: media, to: backup.appendingPathComponent("media"))
        try await server.stop(signal: SIGTERM)

        try await Self.run("pg_restore", ["--no-owner", "--dbname=\(target.url)", dump.path])
        try FileManager.default.copyItem(at: backup.appendingPathComponent("media"), to: restoredMedia)
        let restored = try await ServerProcess(arguments: ["--database", target.url, "--media-dir", restoredMedia.path])
        let login: AuthResponse = try await restored.api.login("bob").decode()
        let reader = Session(user: login.user, token: login.token)
        let held = try await BackupProcessTests.clientIds(restored.api, reader, with: "alice")
        #expect(sent.isSubset(of: held))
        for (item, bytes) in items {
            #expect(
                try await restored.api.mediaBytes(reader, item.id) == bytes, "media \(item.clientMediaId) after restore"
            )
        }
        try await restored.stop(signal: SIGTERM)
        await TestDatabase.drop(source)
        await TestDatabase.drop(target)
    }

    /// The path of a PostgreSQL client tool on `PATH`, if there is one.
    static func tool(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a PostgreSQL tool to completion; its output is in the failure when it fails.
    static func run(_ name: String, _ arguments: [String]) async throws {
        let path = try #require(tool(name), "\(name) is not on PATH (Debian: apt-get install postgresql-client)")
        let ran = try await SpawnedProcess.run(URL(fileURLWithPath: path), arguments)
        try #require(ran.status == 0 && ran.reason == .exit, "\(name) failed: \(ran.output)")
    }
}
