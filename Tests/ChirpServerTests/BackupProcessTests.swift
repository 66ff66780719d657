import ChirpModels
import ChirpTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp admin backup` and `chirp admin restore` on the files of real `chirp serve` processes.
@Suite("Backup and restore", .serialized)
struct BackupProcessTests {
    @Test func aBackupTakenWhileMessagesAreSentRestoresEveryAcknowledgedMessageAndItsMedia() async throws {
        let (data, backup, restored) = (
            ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory()
        )
        defer { for directory in [data, backup, restored] { try? FileManager.default.removeItem(at: directory) } }
        let server = try await ServerProcess(dataDirectory: data, arguments: ["--no-rate-limits"])
        let api = server.api
        let bob = try await api.register("bob")
        var senders: [Session] = []
        for name in ["alice", "carol", "dave"] {
            senders.append(try await api.register(name))
            try await api.follow(bob, name)
        }
        var media: [Media: Data] = [:]
        for index in 0..<2 { try await Self.send(api, senders[0], seed: index, into: &media) }

        // Three senders keep sending while the backup is taken: about 100 messages/s each, at
        // most 400 each, so the messages read back later stay few on a slow machine.
        let acknowledged = Acknowledged()
        let loadSenders = senders
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for sender in loadSenders {
                    group.addTask {
                        var count = 0
                        while !Task.isCancelled, count < 400 {
                            let id = "\(sender.username)-\(count)"
                            count += 1
                            if (try? await api.sendMessage(sender, to: "bob", "load \(id)", clientId: id))?.status
                                == 201
                            {
                                acknowledged.ids.withLock { $0.append(id) }
                            }
                            try? await Task.sleep(for: .milliseconds(10))
                        }
                    }
                }
            }
            acknowledged.ended.withLock { $0 = true }
        }
        while acknowledged.ids.withLock({ $0.count }) < 30, !acknowledged.ended.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(acknowledged.ids.withLock { $0.count } >= 30, "the senders were refused")
        let beforeBackup = Set(acknowledged.ids.withLock { $0 })
        let first = try await runChirp(["admin", "backup", backup.path, "--data-dir", data.path])
        load.cancel()
        await load.value
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("2 media blobs: 2 copied"), "\(first.output)")

        // The next backup into the same directory copies the new blob only.
        let earlier = try #require(media.keys.first)
        let earlierBlob = backup.appendingPathComponent(
            "media/\(earlier.sha256.prefix(2))/\(earlier.sha256.dropFirst(2).prefix(2))/\(earlier.sha256)")
        let earlierInode = try Self.inode(earlierBlob)
        try await Self.send(api, senders[0], seed: 7, into: &media)
        let second = try await runChirp(["admin", "backup", backup.path, "--data-dir", data.path])
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("3 media blobs: 1 copied"), "\(second.output)")
        #expect(try Self.inode(earlierBlob) == earlierInode, "a blob already in the backup is not written again")
        try await server.stop(signal: SIGTERM)

        let restore = try await runChirp(["admin", "restore", backup.path, "--data-dir", restored.path])
        #expect(restore.status == 0, "\(restore.output)")
        let integrity = try await DatabaseQueue(path: restored.appendingPathComponent("chirp.sqlite").path).read {
            try String.fetchAll($0, sql: "PRAGMA integrity_check")
        }
        #expect(integrity == ["ok"])

        let again = try await ServerProcess(dataDirectory: restored)
        let bobAgain: AuthResponse = try await again.api.login("bob").decode()
        let reader = Session(user: bobAgain.user, token: bobAgain.token)
        var held: Set<String> = []
        for sender in senders { held.formUnion(try await Self.clientIds(again.api, reader, with: sender.username)) }
        #expect(
            beforeBackup.isSubset(of: held),
            "missing after restore: \(beforeBackup.subtracting(held).sorted().prefix(5))")
        for (item, bytes) in media {
            #expect(
                try await again.api.mediaBytes(reader, item.id) == bytes, "media \(item.clientMediaId) after restore")
        }
        try await again.stop(signal: SIGTERM)
    }

    @Test func restoreRefusesADamagedBackupOrARunningServerAndThenChangesNothing() async throws {
        let (data, backup, target) = (
            ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory(), ServerProcess.temporaryDirectory()
        )
        var copies: [URL] = []
        defer {
            for directory in [data, backup, target] + copies { try? FileManager.default.removeItem(at: directory) }
        }
        let media = try await Self.backedUp(data, into: backup)

        // A server runs on the target: refused, and that server keeps what it had.
        let running = try await ServerProcess(dataDirectory: target)
        let whileRunning = try await runChirp(["admin", "restore", backup.path, "--data-dir", target.path])
        #expect(whileRunning.status != 0)
        #expect(whileRunning.output.contains("stop the server"), "\(whileRunning.output)")
        #expect(try await running.api.login("alice").status == 401)
        try await running.stop(signal: SIGTERM)
        let targetDatabase = try Data(contentsOf: target.appendingPathComponent("chirp.sqlite"))

        // A backup missing a blob, and one whose database file is damaged: refused.
        let blobless = try Self.copy(backup, &copies)
        let item = try #require(media.keys.first)
        try FileManager.default.removeItem(
            at: blobless.appendingPathComponent(
                "media/\(item.sha256.prefix(2))/\(item.sha256.dropFirst(2).prefix(2))/\(item.sha256)"))
        let withoutBlob = try await runChirp(["admin", "restore", blobless.path, "--data-dir", target.path])
        #expect(withoutBlob.status != 0)
        #expect(withoutBlob.output.contains("1 of 1 media blobs are missing"), "\(withoutBlob.output)")

        let damaged = try Self.copy(backup, &copies)
        let file = try FileHandle(forUpdating: damaged.appendingPathComponent("chirp.sqlite"))
        let length = try file.seekToEnd()
        try file.seek(toOffset: 1024)
        try file.write(contentsOf: Data(repeating: 0xA5, count: Int(length) - 1024))
        try file.close()
        let fromDamaged = try await runChirp(["admin", "restore", damaged.path, "--data-dir", target.path])
        #expect(fromDamaged.status != 0)
        #expect(fromDamaged.output.contains("failed its check"), "\(fromDamaged.output)")

        #expect(try Data(contentsOf: target.appendingPathComponent("chirp.sqlite")) == targetDatabase)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target.path).allSatisfy {
                !$0.hasPrefix("before-restore")
            })

        // The sound backup restores over it, keeping what was there aside.
        let sound = try await runChirp(["admin", "restore", backup.path, "--data-dir", target.path])
        #expect(sound.status == 0, "\(sound.output)")
        #expect(sound.output.contains("is kept in"), "\(sound.output)")
        let restored = try await ServerProcess(dataDirectory: target)
        let login: AuthResponse = try await restored.api.login("alice").decode()
        #expect(login.user.followersCount == 1, "bob's follow is restored with alice")
        try await restored.stop(signal: SIGTERM)
    }

    /// The client ids of the sends the server acknowledged, in order.
    final class Acknowledged: Sendable {
        let ids = Mutex<[String]>([])
        /// Whether every sender has stopped.
        let ended = Mutex(false)
    }

    /// A server on `data` where alice sent bob one blob, backed up into `backup`, then
    /// stopped: that blob and its bytes.
    static func backedUp(_ data: URL, into backup: URL) async throws -> [Media: Data] {
        let server = try await ServerProcess(dataDirectory: data)
        let alice = try await server.api.register("alice")
        let bob = try await server.api.register("bob")
        try await server.api.follow(bob, "alice")
        var media: [Media: Data] = [:]
        try await send(server.api, alice, seed: 1, into: &media)
        let taken = try await runChirp(["admin", "backup", backup.path, "--data-dir", data.path])
        #expect(taken.status == 0, "\(taken.output)")
        try await server.stop(signal: SIGTERM)
        return media
    }

    /// Uploads a blob of `sender`'s and sends it to bob.
    static func send(_ api: APIHarness, _ sender: Session, seed: Int, into media: inout [Media: Data]) async throws {
        let bytes = MediaBytes.random(30_000 + seed, seed: UInt64(seed + 1))
        let upload = try await api.putMedia(sender, "blob-\(seed)", bytes)
        try #require(upload.status == 201, "upload: \(upload.status) \(upload.text)")
        let item: Media = try upload.decode()
        media[item] = bytes
        let sent = try await api.sendMessage(sender, to: "bob", "media \(seed)", mediaIds: [item.id])
        try #require(sent.status == 201, "send: \(sent.status) \(sent.text)")
    }

    /// The client ids of every message between `viewer` and `peer`, page by page.
    static func clientIds(_ api: APIHarness, _ viewer: Session, with peer: String) async throws -> Set<String> {
        var ids: Set<String> = []
        var cursor: String?
        repeat {
            let page = try await api.messages(
                viewer, with: peer, query: "?limit=100" + (cursor.map { "&before=\($0)" } ?? ""))
            ids.formUnion(page.items.map(\.clientMessageId))
            cursor = page.nextCursor
        } while cursor != nil
        return ids
    }

    static func inode(_ url: URL) throws -> UInt64 {
        var info = stat()
        try #require(stat(url.path, &info) == 0, "no file at \(url.path)")
        return UInt64(info.st_ino)
    }

    /// A copy of a backup directory, removed with the test's other directories.
    static func copy(_ backup: URL, _ copies: inout [URL]) throws -> URL {
        let copy = ServerProcess.temporaryDirectory()
        try FileManager.default.copyItem(at: backup, to: copy)
        copies.append(copy)
        return copy
    }
}
