import ChirpServer
import ChirpTestSupport
import Foundation
import Testing

/// `chirp bench connections` end to end on a small count: accounts seeded straight into SQLite,
/// streams from several loopback source addresses within the server's caps, every send delivered
/// to every stream of its recipient, the temporary data removed afterwards.
@Suite("chirp bench connections")
struct ConnectionsBenchTests {
    @Test func opensEveryStreamFromManyAddressesAndDeliversEverySendToEachOfThem() async throws {
        let temporary = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (status, output) = try await runChirpInBackground(
            ["bench", "connections", "--count", "42", "--streams-per-user", "4", "--per-address", "5", "--rate", "40", "--seconds", "2",
             "--senders", "4", "--json"],
            environment: ["TMPDIR": temporary.path])
        #expect(status == 0, "\(output)")
        let json = String(output[try #require(output.firstIndex(of: "{"), "\(output)")...])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
        // A soak run once saw every handshake reset and the server gone (its RSS unreadable
        // afterwards); the report now says how the server ended and what it printed last.
        #expect(report["serverEnded"] == nil, "\(output)")
        #expect(report["opened"] as? Int == 42)
        #expect(report["held"] as? Int == 42)
        #expect(report["failedHandshakes"] as? Int == 0)
        // 42 streams, 4 per account: 11 accounts, the last with 2.
        #expect(report["users"] as? Int == 11)
        let sends = try #require(report["sends"] as? Int)
        #expect(sends > 0 && report["sendErrors"] as? Int == 0, "\(output)")
        #expect(report["undelivered"] as? Int == 0, "\(output)")
        let delivery = try #require(report["delivery"] as? [String: Any])
        // Each send reaches 4 streams, or 2 when it went to the last account.
        let delivered = try #require(delivery["count"] as? Int)
        #expect(delivered >= sends * 2 && delivered <= sends * 4, "\(delivered) deliveries of \(sends) sends")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the seeded data was removed")
    }

    @Test func theDescriptorLimitIsRaisedToTheHardLimit() {
        FileDescriptorLimit.raise()
        let limit = FileDescriptorLimit.current
        #expect(limit.soft == limit.hard, "soft \(limit.soft), hard \(limit.hard)")
    }
}
