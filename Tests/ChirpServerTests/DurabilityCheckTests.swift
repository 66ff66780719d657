import ChirpTestSupport
import Foundation
import Testing

/// The short form of `chirp bench durability`: two SIGKILLs while two senders retry with the
/// same client ids; nothing acknowledged may be lost or stored twice, and no stream may have a
/// gap. (Kept small: it shares the disk with the rest of the parallel test run.) On SQLite, and
/// on PostgreSQL where `CHIRP_TEST_POSTGRES_URL` names one (always in CI).
@Suite("Durability under SIGKILL", .serialized)
struct DurabilityCheckTests {
    static let postgresReady = TestDatabase.postgresAdminURL != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test func twoKillsLoseAndDuplicateNothing() async throws {
        try await Self.check(extra: [])
    }

    @Test(
        .enabled(
            if: postgresReady,
            "CHIRP_TEST_POSTGRES_URL is not set (CI sets it); skipping the PostgreSQL durability check"))
    func twoKillsLoseAndDuplicateNothingOnPostgres() async throws {
        let settings = try #require(TestDatabase.freshPostgresSettings(), "CHIRP_TEST_POSTGRES_URL is required in CI")
        try await TestDatabase.create(settings)
        let outcome: Result<Void, any Error>
        do { outcome = .success(try await Self.check(extra: ["--database", settings.url])) } catch {
            outcome = .failure(error)
        }
        await TestDatabase.drop(settings)
        try outcome.get()
    }

    static func check(extra: [String]) async throws {
        let result = try await runChirpInBackground(
            ["bench", "durability", "--kills", "2", "--seconds", "2", "--senders", "2"] + extra)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("lost 0 · duplicated 0 · stream gaps 0"), "\(result.output)")
        #expect(!result.output.contains("acknowledged 0,"), "messages were acknowledged at all: \(result.output)")
    }
}
