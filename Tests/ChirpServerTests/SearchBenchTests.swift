import ChirpTestSupport
import Foundation
import Testing

/// `chirp bench search` end to end with a tiny data set: seeded straight into SQLite, searched
/// over HTTP on a child server, the temporary data removed afterwards.
@Suite("chirp bench search")
struct SearchBenchTests {
    @Test func seedsSearchesAndReportsLatencies() async throws {
        let temporary = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (status, output) = try await runChirpInBackground(
            [
                "bench", "search", "--messages", "2000", "--users", "10", "--queries", "40", "--concurrency", "2",
                "--json",
            ],
            environment: ["TMPDIR": temporary.path])
        #expect(status == 0, "\(output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(report["queries"] as? Int == 40)
        #expect((report["p99Milliseconds"] as? Double ?? 0) > 0)
        #expect((report["queriesPerSecond"] as? Double ?? 0) > 0)
        // With 200 messages per user from a Zipf vocabulary, common pairs find something.
        #expect((report["averageResults"] as? Double ?? 0) > 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the seeded data was removed")
    }
}
