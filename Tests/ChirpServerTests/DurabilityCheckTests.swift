import ChirpTestSupport
import Testing

/// The short form of `chirp bench durability`: two SIGKILLs while two senders retry with the
/// same client ids; nothing acknowledged may be lost or stored twice, and no stream may have a
/// gap. (Kept small: it shares the disk with the rest of the parallel test run.)
@Suite("Durability under SIGKILL", .serialized)
struct DurabilityCheckTests {
    @Test func twoKillsLoseAndDuplicateNothing() throws {
        let result = try runChirp(["bench", "durability", "--kills", "2", "--seconds", "4", "--senders", "2"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("lost 0 · duplicated 0 · stream gaps 0"), "\(result.output)")
        #expect(!result.output.contains("acknowledged 0,"), "messages were acknowledged at all: \(result.output)")
    }
}
