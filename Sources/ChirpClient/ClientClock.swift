/// Time as the client's workers see it: injected so the outbox's backoff, the sync engine's
/// reconnects and typing expiry are tested without waiting.
public struct ClientClock: Sendable {
    /// The current instant.
    public var now: @Sendable () -> ContinuousClock.Instant
    /// Waits (throws when cancelled).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock from its two closures.
    public init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// Real time.
    public static let live = ClientClock(now: { .now }, sleep: { try await Task.sleep(for: $0) })
}
