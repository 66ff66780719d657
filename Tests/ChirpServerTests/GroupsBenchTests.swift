import Foundation
import Testing

/// `chirp bench groups` end to end on a tiny scale (two groups of five, a second a phase): it
/// runs, every acknowledged group message reaches every member's stream, and its figures are
/// reported; its embedded server's data is gone afterwards.
@Suite("chirp bench groups")
struct GroupsBenchTests {
    @Test func deliversEveryGroupMessageToEveryMemberAndReportsTheFigures() async throws {
        let run = try await BenchRun([
            "bench", "groups", "--members", "5", "--groups", "2", "--seconds", "1", "--concurrency", "4", "--rate",
            "20",
            "--latency-seconds", "1", "--json",
        ])
        let (output, left) = (run.output, run.left)
        #expect(run.status == 0, "\(output)")
        let report = try run.report()
        #expect(
            report["members"] as? Int == 5 && report["groups"] as? Int == 2 && report["streams"] as? Int == 10,
            "\(output)")
        let durable = try #require(report["durableMessages"] as? Int)
        #expect(durable > 0 && (report["messagesPerSecond"] as? Double ?? 0) > 0, "\(output)")
        #expect(
            report["throughputDeliveredToAll"] as? Int == durable,
            "every acknowledged message reached all five: \(output)")
        #expect(report["latencySent"] as? Int == 20 && report["latencyDeliveredToAll"] as? Int == 20, "\(output)")
        #expect(
            report["streamsMissingMessages"] as? Int == 0,
            "every member's stream got every message of its group: \(output)")
        let delivered = try #require(report["delivered"] as? [String: Any])
        #expect(delivered["count"] as? Int == 20 && (delivered["p99"] as? Double ?? 0) > 0, "\(output)")
        #expect(left.isEmpty, "the embedded server's data was removed; left: \(left)")
    }
}
