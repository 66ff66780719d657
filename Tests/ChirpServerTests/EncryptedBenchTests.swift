import Foundation
import Testing

/// `chirp bench encrypted` end to end on a tiny scale (two pairs of each kind, two rounds of a
/// second, groups of five for a second): the server takes every envelope the bench seals (no
/// error, no `devices_changed`), every message reaches its peer or every member, every arrival
/// in the encrypted group opens, and the embedded server's data is gone afterwards.
@Suite("chirp bench encrypted")
struct EncryptedBenchTests {
    @Test func theServerTakesEveryEnvelopeAndEveryMemberOpensWhatReachedIt() async throws {
        let run = try await BenchRun([
            "bench", "encrypted", "--pairs", "2", "--rounds", "2", "--duration", "1", "--members", "5",
            "--group-rate", "5", "--group-seconds", "1", "--seals", "10", "--json",
        ])
        let (output, left) = (run.output, run.left)
        #expect(run.status == 0, "\(output)")
        let report = try run.report()
        let sealing = try #require(report["sealing"] as? [[String: Any]], "\(output)")
        #expect(sealing.map { $0["recipients"] as? Int } == [1, 4], "\(output)")

        let direct = try #require(report["direct"] as? [String: Any], "\(output)")
        for kind in ["plaintext", "encrypted"] {
            let side = try #require(direct[kind] as? [String: Any], "\(output)")
            let sends = try #require(side["sends"] as? Int)
            #expect(sends > 0, "\(kind): \(output)")
            #expect(side["errors"] as? Int == 0 && side["devicesChanged"] as? Int == 0, "\(kind): \(output)")
            let delivered = try #require(side["delivered"] as? [String: Any])
            #expect(delivered["count"] as? Int == sends, "every \(kind) send reached its peer: \(output)")
        }

        let group = try #require(report["group"] as? [String: Any], "\(output)")
        for kind in ["plaintext", "encrypted"] {
            let side = try #require(group[kind] as? [String: Any], "\(output)")
            #expect(side["sent"] as? Int == 5 && side["errors"] as? Int == 0, "\(kind): \(output)")
            #expect(
                side["deliveries"] as? Int == 20 && side["deliveredToAll"] as? Int == 5,
                "each of the \(kind) group's messages reached the four other members: \(output)")
        }
        let encrypted = try #require(group["encrypted"] as? [String: Any])
        let opened = try #require(encrypted["opened"] as? [String: Any])
        #expect(
            opened["count"] as? Int == 20 && encrypted["notOpened"] as? Int == 0,
            "every arrival opened with its member's keys: \(output)")
        #expect(left.isEmpty, "the embedded server's data was removed; left: \(left)")
    }
}
