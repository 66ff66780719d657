import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A rate limit reached is said plainly by the CLI, with how long to wait, and at once: the
/// client does not sit out a `Retry-After` of minutes.
@Suite("Rate limits in the CLI", .serialized)
struct RateLimitMessageTests {
    @Test func theCLISaysWhichLimitAndHowLongToWait() async throws {
        let server = try await ServerProcess(arguments: ["--account-limit", "1/1h", "--tweet-limit", "1/3h"])
        defer { Task { _ = try? await server.stop(signal: SIGTERM) } }
        let alice = ClientHome(server: server.baseURL)
        try await alice.register("alice")
        let second = try await ClientHome(server: server.baseURL).chirp("register", "bob", input: "password-bob\n")
        #expect(second.status != 0)
        #expect(
            second.output.contains("Too many accounts created from this address; try again in 60 minutes."),
            "\(second.output)")

        #expect(try await alice.chirp("tweet", "first").status == 0)
        let started = ContinuousClock.now
        let again = try await alice.chirp("tweet", "second")
        #expect(again.status != 0)
        #expect(again.output.contains("You have posted too many tweets; try again in "), "\(again.output)")
        #expect(again.output.contains("hours."), "\(again.output)")
        #expect(ContinuousClock.now - started < .seconds(10), "answered at once, not after the Retry-After")
    }
}
