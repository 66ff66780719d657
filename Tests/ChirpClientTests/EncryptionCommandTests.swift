import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// The CLI's encrypted conversations against a real `chirp serve`: `encrypt`, `devices`,
/// `safety-number`, and `send`, `messages`, `conversations`, `search`, `media get` and
/// `export` working from this device's decrypted copies.
@Suite("Encryption commands", .serialized)
struct EncryptionCommandTests {
    /// The lines of `output` (the CLI's, standard error included).
    static func lines(_ output: String) -> [String] { output.split(separator: "\n").map(String.init) }

    @Test func theCLIEncryptsAConversationAndReadsItFromTheDecryptedCopies() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let (alice, bob) = (homes["alice"]!, homes["bob"]!)

        // Devices: registered at sign-up, this one marked.
        let mine = try await alice.chirp("devices")
        #expect(mine.status == 0 && mine.output.contains("chirp on ") && mine.output.contains("(this device)"))
        let bobs = try await alice.chirp("devices", "bob", "--json")
        #expect(try JSONDecoder().decode([Device].self, from: Data(bobs.output.utf8)).count == 1, "\(bobs.output)")

        let on = try await alice.chirp("encrypt", "bob")
        #expect(on.status == 0 && on.output.contains("🔒 bob is encrypted"), "\(on.output)")
        let nobody = try await alice.chirp("encrypt")
        #expect(nobody.status != 0 && nobody.output.contains("name one conversation"))

        let watch = try bob.start("watch")
        #expect(try await watch.waitFor { $0.contains("watch: live") })
        let secret = "the key is under the mat \(UUID().uuidString.prefix(8))"
        let sent = try await alice.chirp("send", "bob", secret)
        #expect(sent.status == 0 && sent.output.contains("sent: \(secret)"), "\(sent.output)")
        // `watch` prints the decrypted copy its own sync stored.
        #expect(try await watch.waitFor { $0.contains("message alice → bob: 🔒 \(secret)") }, "\(watch.output)")
        _ = await watch.stop()
        let read = try await bob.chirp("messages", "alice")
        #expect(read.status == 0 && read.output.contains("alice: \(secret)"), "\(read.output)")
        let listed = try await bob.chirp("conversations")
        #expect(listed.output.contains("🔒 alice") && listed.output.contains(secret), "\(listed.output)")
        let found = try await bob.chirp("search", "under", "mat")
        #expect(found.output.contains("🔒 \(secret)"), "\(found.output)")

        // Both sides print the same safety number.
        let aliceNumber = try await alice.chirp("safety-number", "bob")
        let bobNumber = try await bob.chirp("safety-number", "alice", "--json")
        #expect(aliceNumber.status == 0 && bobNumber.status == 0, "\(aliceNumber.output) \(bobNumber.output)")
        let digits = try #require(Self.lines(aliceNumber.output).dropFirst().first)
        #expect(digits.count == 71 && bobNumber.output.contains(digits), "\(aliceNumber.output)\n\(bobNumber.output)")

        // An attachment: encrypted before the upload, decrypted by `media get`.
        let contents = Data("plans for the heist \(UUID().uuidString)\n".utf8)
        let file = try MediaClientTests.file("plans.txt", contents)
        let withFile = try await alice.chirp("send", "bob", "--attach", file.path, "see attached")
        #expect(withFile.status == 0, "\(withFile.output)")
        let shown = try await bob.chirp("messages", "alice")
        let line = try #require(Self.lines(shown.output).first { $0.contains("plans.txt") }, "\(shown.output)")
        #expect(line.contains("(text/plain,"))
        let id = try #require(line.components(separatedBy: "chirp media get ").last)
        let target = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let got = try await bob.chirp("media", "get", id, "-o", target.path)
        #expect(got.status == 0, "\(got.output)")
        #expect(try Data(contentsOf: target.appendingPathComponent("plans.txt")) == contents)

        // The export adds the decrypted copies the server does not have.
        let archive = target.appendingPathComponent("export.tar")
        let exported = try await bob.chirp("export", archive.path)
        #expect(exported.status == 0, "\(exported.output)")
        let listing = try await Self.tar(["-tf", archive.path])
        #expect(listing.contains("chirp-export/encrypted-messages.json"), "\(listing)")
        let copies = try await Self.tar(["-xOf", archive.path, "chirp-export/encrypted-messages.json"])
        #expect(copies.contains(secret) && copies.contains("\"verification\" : \"opened\""), "\(copies)")

        // Groups: an admin turns it on; members read what is sent.
        let created = try await alice.chirp("group", "create", "Crew", "bob", "--json")
        let group = try JSONDecoder().decode(LocalGroup.self, from: Data(created.output.utf8))
        let groupOn = try await alice.chirp("encrypt", "--group", group.id)
        #expect(groupOn.status == 0 && groupOn.output.contains("group \(group.id) is encrypted"), "\(groupOn.output)")
        #expect(try await alice.chirp("send", "--group", group.id, "crew", "only").status == 0)
        let crew = try await bob.chirp("messages", "--group", group.id)
        #expect(crew.output.contains("alice: crew only"), "\(crew.output)")
    }

    /// Runs `tar ARGUMENTS` (through `SpawnedProcess`); what it printed.
    static func tar(_ arguments: [String]) async throws -> String {
        let ran = try await SpawnedProcess.run(URL(fileURLWithPath: "/usr/bin/tar"), arguments)
        return ran.output
    }
}
