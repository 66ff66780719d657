import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChirpClient

#if canImport(Glibc)
    import Glibc
#endif

/// Attachments through the client kit and the CLI against a real `chirp serve`.
@Suite("Client media", .serialized)
struct MediaClientTests {
    static func file(_ name: String, _ bytes: Data) throws -> URL {
        let directory = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    static func randomBytes(_ count: Int) -> Data {
        // Eight bytes per draw: a byte per draw was a system call per byte (3 MiB of them).
        var generator = SystemRandomNumberGenerator()
        var bytes = Data(capacity: count + 8)
        while bytes.count < count { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return bytes.prefix(count)
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 3, count: 500))

    @Test func theCLISendsAttachmentsListsThemAndGetsThemBack() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let picture = try Self.file("cat.png", Self.png)
        let bytes = Self.randomBytes(3 * 1024 * 1024 + 17)
        let archive = try Self.file("notes.bin", bytes)
        let sent = try await homes["alice"]!.chirp(
            "send", "bob", "--attach", picture.path, "--attach", archive.path, "look")
        #expect(sent.status == 0, "\(sent.output)")
        #expect(sent.output.contains("sent: look"))
        #expect(sent.output.contains("upload 2: done"))
        let listed = try await homes["bob"]!.chirp("messages", "alice")
        #expect(listed.output.contains("cat.png (image/png, 508 B)"), "\(listed.output)")
        #expect(listed.output.contains("notes.bin (application/octet-stream, 3.0 MiB)"))
        let id = try #require(
            listed.output.split(separator: "\n").first { $0.contains("notes.bin") }?
                .components(separatedBy: "chirp media get ").last)
        let target = ServerProcess.temporaryDirectory().appendingPathExtension("bin")
        let got = try await homes["bob"]!.chirp("media", "get", id, "-o", target.path)
        #expect(got.status == 0, "\(got.output)")
        #expect(try Data(contentsOf: target) == bytes)
        // Into a folder: the file goes in under its own name and the folder and its contents stay.
        let folder = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("other.txt"))
        let intoFolder = try await homes["bob"]!.chirp("media", "get", id, "-o", folder.path)
        #expect(intoFolder.status == 0, "\(intoFolder.output)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.bin")) == bytes)
        #expect(try Data(contentsOf: folder.appendingPathComponent("other.txt")) == Data("keep".utf8))
        // Someone else's id is not found.
        let missing = try await homes["bob"]!.chirp("media", "get", "424242")
        #expect(missing.status != 0 && missing.output.contains("chirp messages"))
        // Text alone still needs text.
        #expect(try await homes["alice"]!.chirp("send", "bob", "--attach", picture.path).status == 0)
        // A file that is not there is named, among several: nothing is sent.
        let gone = ServerProcess.temporaryDirectory().appendingPathComponent("gone.png").path
        let refused = try await homes["alice"]!.chirp(
            "send", "bob", "--attach", picture.path, "--attach", gone, "with a missing file")
        #expect(refused.status != 0)
        #expect(refused.output.contains("Cannot attach \(gone): there is no such file."), "\(refused.output)")
        #expect(
            try await homes["alice"]!.chirp("send", "bob", "--attach", folder.path, "a folder").output.contains(
                "Cannot attach \(folder.path): it is a folder"))
    }

    @Test func theOutboxUploadsAttachmentsAfterARestartWithProgressAndDownloadsIntoTheCache() async throws {
        let data = ServerProcess.temporaryDirectory()
        var server = try await ServerProcess(dataDirectory: data)
        defer { try? FileManager.default.removeItem(at: data) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let port = server.port
        try await server.stop(signal: SIGTERM)
        let bytes = Self.randomBytes(9 * 1024 * 1024)
        let big = try Self.file("film.bin", bytes)
        let picture = try Self.file("cat.png", Self.png)
        // Offline: stored as pending with its attachments shown.
        var pending: LocalMessage
        do {
            let alice = try homes["alice"]!.session()
            pending = try await alice.enqueue("", to: "bob", attachments: [picture, big])
            #expect(pending.state == .pending)
            #expect(pending.attachments.map(\.name) == ["cat.png", "film.bin"])
            #expect(pending.attachments.map(\.contentType) == ["image/png", "application/octet-stream"])
            #expect(pending.attachments.map(\.size) == [Int64(Self.png.count), Int64(bytes.count)])
            _ = try? await alice.drainOutbox()
        }
        // Back online, in a new session (a restart): the outbox uploads, then sends.
        server = try await ServerProcess(dataDirectory: data, port: port)
        let alice = try homes["alice"]!.session()
        let seen = Mutex<[MediaTransfer]>([])
        let transfers = alice.mediaTransfers()
        let watcher = Task { for await transfer in transfers { seen.withLock { $0.append(transfer) } } }
        let report = try await alice.drainOutbox()
        #expect(report.sent.count == 1)
        let sent = try #require(try await alice.messages(with: "bob", limit: 5, refresh: false).items.last)
        #expect(sent.state != .pending && sent.media.count == 2)
        #expect(sent.media.map(\.filename) == ["cat.png", "film.bin"])
        try await Task.sleep(for: .milliseconds(100))
        watcher.cancel()
        let updates = seen.withLock { $0 }
        let film = updates.filter { if case .upload(_, 1, _) = $0.subject { true } else { false } }
        #expect(film.last?.state == .finished && film.last?.bytesDone == Int64(bytes.count))
        #expect(film.filter { $0.state == .running }.count >= 2)
        #expect(try await alice.database.attachments.fetch(.all).isEmpty)

        // Bob downloads into his cache, with progress; the second time it comes from the cache.
        let bob = try homes["bob"]!.session()
        let received = try #require(try await bob.messages(with: "alice", limit: 5, refresh: true).items.last)
        let media = try #require(received.media.last)
        let downloads = bob.mediaTransfers()
        let finished = Task<MediaTransfer?, Never> {
            for await transfer in downloads where transfer.state == .finished { return transfer }
            return nil
        }
        let cached = try await bob.download(media)
        #expect(try Data(contentsOf: cached) == bytes)
        #expect(await finished.value?.subject == .download(mediaId: media.id))
        #expect(try await bob.download(media) == cached)
        // The cache stays under its cap: least recently used first out.
        var small = bob.mediaCache
        small.capacity = 1024
        small.evict()
        #expect(!FileManager.default.fileExists(atPath: cached.path))
        try await server.stop(signal: SIGTERM)
    }

    @Test func anUploadResumesFromWhereTheServerStopped() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bytes = Self.randomBytes(5 * 1024 * 1024)
        let file = try Self.file("part.bin", bytes)
        // The first 2 MiB arrived before a cut.
        let url = server.baseURL.appendingPathComponent("/v1/media/resume-1")
        let first = try await FileTransfer().upload(
            file, offset: 0, length: 2 * 1024 * 1024, to: url,
            headers: [
                "Authorization": "Bearer \(alice.api.token!)",
                "Content-Range": "bytes 0-\(2 * 1024 * 1024 - 1)/\(bytes.count)",
            ])
        #expect(first.status == 202)
        let seen = Mutex<[MediaTransfer]>([])
        let transfers = alice.mediaTransfers()
        let watcher = Task { for await transfer in transfers { seen.withLock { $0.append(transfer) } } }
        let media = try await alice.upload(file, clientMediaId: "resume-1")
        #expect(media.size == Int64(bytes.count))
        try await Task.sleep(for: .milliseconds(50))
        watcher.cancel()
        // Progress started at the resume point, not at zero.
        let running = seen.withLock { $0 }.filter { $0.state == .running }
        let start: Int64? = running.first?.bytesDone
        #expect(start == Int64(2 * 1024 * 1024), "\(running.prefix(3))")
        let back = try await alice.download(media, to: ServerProcess.temporaryDirectory().appendingPathExtension("bin"))
        #expect(try Data(contentsOf: back) == bytes)
    }
}
