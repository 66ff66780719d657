import ChirpModels
import ChirpTestSupport
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp admin restore` trusts nothing it reads from a backup (issue 52): a media row must
/// name its blob by a SHA-256 and the blob must be a file of the backup's media directory, or
/// the backup is refused before anything changes. Real `chirp serve` and `chirp admin`
/// processes.
@Suite("Restore checks what a backup names", .serialized)
struct RestoreValidationTests {
    @Test func aBackupWhoseMediaRowNamesAPathOrWhoseBlobIsALinkIsRefusedAndChangesNothing() async throws {
        // One directory holds it all, at depths where the name `../../evil` leads from the
        // backup's media directory to a file the test puts there, and from the target's to a
        // place inside this directory too.
        let root = ServerProcess.temporaryDirectory()
        var copies: [URL] = []
        defer { for directory in [root] + copies { try? FileManager.default.removeItem(at: directory) } }
        let data = root.appendingPathComponent("server")
        let backup = root.appendingPathComponent("b1/b2/backup")
        let target = root.appendingPathComponent("d1/d2/target")
        let item = try #require(try await BackupProcessTests.backedUp(data, into: backup).keys.first)

        // The target holds a server's data, which must survive every refusal.
        let running = try await ServerProcess(dataDirectory: target)
        _ = try await running.api.register("carol")
        try await running.stop(signal: SIGTERM)
        let before = try Self.contents(of: target)

        // The media row names `../../evil`: from the media directory of this copy of the
        // backup that is a file of the right size, from the target's a place outside its data.
        let named = root.appendingPathComponent("n1/n2/named")
        try FileManager.default.createDirectory(
            at: named.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: backup, to: named)
        try await DatabaseQueue(path: named.appendingPathComponent("chirp.sqlite").path).write {
            try $0.execute(sql: "UPDATE media SET sha256 = '../../evil'")
        }
        try Data(repeating: 0x45, count: Int(item.size)).write(to: root.appendingPathComponent("n1/evil"))
        let refused = try await runChirp(["admin", "restore", named.path, "--data-dir", target.path])
        #expect(refused.status != 0)
        #expect(refused.output.contains("nothing was changed"), "\(refused.output)")
        #expect(
            refused.output.contains("\"../../evil\"") && refused.output.contains("SHA-256 (64 lowercase hex digits)"),
            "\(refused.output)")
        let escaped = root.appendingPathComponent("d1/evil")
        #expect(
            !FileManager.default.fileExists(atPath: escaped.path)
                && !FileManager.default.fileExists(atPath: escaped.path + ".partial"))
        #expect(try Self.contents(of: target) == before)

        // A blob that is a link to a file outside the backup, of the right size.
        let linked = try BackupProcessTests.copy(backup, &copies)
        let secret = root.appendingPathComponent("secret")
        try Data(repeating: 0x53, count: Int(item.size)).write(to: secret)
        let blob = linked.appendingPathComponent(
            "media/\(item.sha256.prefix(2))/\(item.sha256.dropFirst(2).prefix(2))/\(item.sha256)")
        try FileManager.default.removeItem(at: blob)
        try FileManager.default.createSymbolicLink(at: blob, withDestinationURL: secret)
        let throughLink = try await runChirp(["admin", "restore", linked.path, "--data-dir", target.path])
        #expect(throughLink.status != 0)
        #expect(
            throughLink.output.contains("1 of 1 media blobs are missing, cut short or links out of"),
            "\(throughLink.output)")
        #expect(try Self.contents(of: target) == before)

        // The sound backup restores.
        let sound = try await runChirp(["admin", "restore", backup.path, "--data-dir", target.path])
        #expect(sound.status == 0, "\(sound.output)")
    }

    /// Every file under `directory` (its path inside) with its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: directory.path)
        while let path = walker?.nextObject() as? String {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
