import Histogram

/// What a `chirp bench connections-worker` process tells the bench, one JSON line on its stdout
/// at a time: once its streams are open, then in answer to each command on its stdin.
struct ConnectionsWorkerStatus: Codable, Sendable {
    var opened: Int
    var failed: Int
    var retried: Int
    var firstFailure: String?
    /// The opening's first handshake and its end, in microseconds of the run's `LoadClock`.
    var openingStartMicroseconds: Int64
    var openingEndMicroseconds: Int64
    /// Streams open now.
    var held: Int
    /// Message frames timed so far.
    var delivered: Int
    /// The worker's own RSS.
    var residentBytes: Int?
    /// Every delivery latency, in microseconds: in the answer to `report` only.
    var deliveries: Histogram<UInt64>?

    /// The commands a worker takes on its stdin, one a line.
    enum Command: String {
        /// Answer with a status.
        case status
        /// Answer with a status and the deliveries, close every stream and exit.
        case report
    }
}
