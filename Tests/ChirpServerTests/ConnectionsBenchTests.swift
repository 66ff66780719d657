import ChirpServer
import ChirpTestSupport
import Foundation
import Testing

/// `chirp bench connections` end to end on a small count: accounts seeded straight into the
/// database, streams from several loopback source addresses within the server's caps, every
/// send delivered to every stream of its recipient, the temporary data removed afterwards. On
/// SQLite, and on PostgreSQL with two instances and two worker processes where
/// `CHIRP_TEST_POSTGRES_URL` names a server (always in CI).
@Suite("chirp bench connections")
struct ConnectionsBenchTests {
    static let postgresReady = TestDatabase.postgresAdminURL != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test func opensEveryStreamFromManyAddressesAndDeliversEverySendToEachOfThem() async throws {
        let (report, output) = try await Self.run([])
        Self.expectEveryStreamServed(report, output)
    }

    @Test(.enabled(if: postgresReady, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it); skipping the PostgreSQL bench"))
    func spreadsTheStreamsOverInstancesAndWorkersOnPostgreSQL() async throws {
        let admin = try #require(TestDatabase.postgresAdminURL, "CHIRP_TEST_POSTGRES_URL is required in CI")
        let (report, output) = try await Self.run(["--database", admin, "--instances", "2", "--workers", "2"])
        Self.expectEveryStreamServed(report, output)
        #expect(report["instances"] as? Int == 2 && report["workers"] as? Int == 2, "\(output)")
        #expect((report["instanceRSSAfterBytes"] as? [Int])?.count == 2, "\(output)")
    }

    @Test func theDescriptorLimitIsRaisedToTheHardLimit() {
        FileDescriptorLimit.raise()
        let limit = FileDescriptorLimit.current
        #expect(limit.soft == limit.hard, "soft \(limit.soft), hard \(limit.hard)")
    }

    /// Runs the bench on 42 streams (4 per account, 5 per address) with `extra` arguments and
    /// returns its JSON report; the run's temporary data must be gone afterwards.
    static func run(_ extra: [String]) async throws -> (report: [String: Any], output: String) {
        let temporary = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (status, output) = try await runChirpInBackground(
            [
                "bench", "connections", "--count", "42", "--streams-per-user", "4", "--per-address", "5", "--rate",
                "40", "--seconds", "2",
                "--senders", "4", "--json",
            ] + extra,
            environment: ["TMPDIR": temporary.path])
        #expect(status == 0, "\(output)")
        let json = String(output[try #require(output.firstIndex(of: "{"), "\(output)")...])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the seeded data was removed")
        return (report, output)
    }

    /// Every stream opened and held, every send acknowledged and delivered to each stream of its recipient.
    static func expectEveryStreamServed(_ report: [String: Any], _ output: String) {
        // A soak run once saw every handshake reset and the server gone (its RSS unreadable
        // afterwards); the report now says how the server ended and what it printed last.
        #expect(report["serverEnded"] == nil, "\(output)")
        #expect(report["opened"] as? Int == 42)
        #expect(report["held"] as? Int == 42)
        #expect(report["failedHandshakes"] as? Int == 0)
        // 42 streams, 4 per account: 11 accounts, the last with 2.
        #expect(report["users"] as? Int == 11)
        guard let sends = report["sends"] as? Int, let delivery = report["delivery"] as? [String: Any],
            let delivered = delivery["count"] as? Int
        else {
            Issue.record("no sends or deliveries in the report: \(output)")
            return
        }
        #expect(sends > 0 && report["sendErrors"] as? Int == 0, "\(output)")
        #expect(report["undelivered"] as? Int == 0, "\(output)")
        // Each send reaches 4 streams, or 2 when it went to the last account.
        #expect(delivered >= sends * 2 && delivered <= sends * 4, "\(delivered) deliveries of \(sends) sends")
    }
}
