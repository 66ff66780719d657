/// What a `chirp bench connections` run does, whichever processes do it: the seeded accounts,
/// how the streams are spread over them and over source addresses, and the sending.
struct ConnectionsPlan: Sendable {
    /// Seeded accounts, in order; the first `senders` send (everyone follows them).
    let accounts: [BenchAccount]
    /// Streams in all; stream i belongs to account i / streamsPerUser.
    let count: Int
    let streamsPerUser: Int
    /// Streams from one loopback source address.
    let perAddress: Int
    /// Handshakes in flight (in each process that opens streams).
    let inFlight: Int
    /// Messages per second in all, for `seconds`, from the first `senders` accounts.
    let rate: Int
    let seconds: Int
    let senders: Int
}
