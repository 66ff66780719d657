import ChirpLogging
import Foundation
import Testing

/// Client processes running at once share a log directory without touching each other's
/// pending entries, and what an ended process left is found by the one holding the directory.
@Suite("Log directory lease")
struct LogDirectoryLeaseTests {
    @Test func aSecondProcessGetsItsOwnDirectoryAndItsLeftoversAreFoundOnceItEnds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-lease-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try LogDirectoryLease(root: root)
        #expect(first.isPrimary && first.directory == root)
        var second: LogDirectoryLease? = try LogDirectoryLease(root: root)
        let secondDirectory = try #require(second?.directory)
        #expect(second?.isPrimary == false && secondDirectory != root)
        #expect(second?.abandoned().isEmpty == true, "only the primary looks after others")
        #expect(first.abandoned().isEmpty, "the second still runs: its directory is locked")

        try Data("{}\n".utf8).write(to: secondDirectory.appendingPathComponent("pending.jsonl"))
        second = nil  // the process ends (its lock goes with it, however it ends)
        // A process another test spawns holds a copy of every descriptor from its fork to its
        // exec (close-on-exec acts only then), so the lock may stay taken a moment longer.
        var left = first.abandoned()
        for _ in 0..<100 where left.isEmpty {
            Thread.sleep(forTimeInterval: 0.01)
            left = first.abandoned()
        }
        #expect(left.map(\.directory.lastPathComponent) == [secondDirectory.lastPathComponent])
        // Not left[0]: a trap would end the whole test process and orphan other tests' servers.
        let taken = try #require(left.first)
        #expect(first.abandoned().isEmpty, "one taker at a time")
        taken.release(true)
        #expect(!FileManager.default.fileExists(atPath: secondDirectory.path))
    }

    @Test func aSecondaryRemovesItsEmptyDirectoryOnAnOrderlyExit() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-lease-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try LogDirectoryLease(root: root)
        let second = try LogDirectoryLease(root: root)
        second.finish(isEmpty: false)
        #expect(FileManager.default.fileExists(atPath: second.directory.path), "entries wait: kept")
        second.finish(isEmpty: true)
        #expect(!FileManager.default.fileExists(atPath: second.directory.path))
        first.finish(isEmpty: true)
        #expect(FileManager.default.fileExists(atPath: root.path), "the shared directory stays")
    }
}
