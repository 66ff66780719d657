import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// `chirp export FILE` against a real `chirp serve`: the archive arrives as a tar file that the
/// system's `tar` extracts, with the user's messages and the bytes of their media.
@Suite("Client data export", .serialized)
struct DataExportClientTests {
    @Test func chirpExportDownloadsAnArchiveThatTarExtracts() async throws {
        let server = try await ServerProcess()
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)
        let work = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let photo = work.appendingPathComponent("photo.bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: photo)
        #expect(try await bob.chirp("send", "alice", "--attach", photo.path, "a photo for you").status == 0)
        #expect(try await alice.chirp("send", "bob", "thanks!").status == 0)

        let archive = work.appendingPathComponent("my-data.tar")
        let exported = try await alice.chirp("export", archive.path)
        #expect(
            exported.status == 0 && exported.output.contains("exported your data to \(archive.path)"),
            "\(exported.output)")
        let extracted = work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let tar = try await SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/tar"), ["-xf", archive.path, "-C", extracted.path])
        #expect(tar.status == 0 && tar.reason == .exit, "tar: \(tar.output)")

        let root = extracted.appendingPathComponent("chirp-export")
        let messages = try JSONDecoder().decode(
            [Message].self, from: Data(contentsOf: root.appendingPathComponent("messages/bob.json")))
        #expect(messages.map(\.text) == ["a photo for you", "thanks!"])
        let media = try #require(messages.first?.media.first)
        #expect(try Data(contentsOf: root.appendingPathComponent("media/\(media.id)-photo.bin")) == bytes)
        let profile = try JSONDecoder().decode(
            User.self, from: Data(contentsOf: root.appendingPathComponent("profile.json")))
        #expect(profile.username == "alice")

        let loggedOut = ClientHome(server: server.baseURL)
        #expect(try await loggedOut.chirp("export", archive.path).status != 0, "needs a login")
    }
}
