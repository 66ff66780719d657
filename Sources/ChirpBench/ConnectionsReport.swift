import Foundation

/// What `chirp bench connections` measured.
struct ConnectionsReport: Encodable {
    var requested: Int
    var streamsPerUser: Int
    var users: Int
    /// Server processes (on one PostgreSQL database when more than one).
    var instances = 1
    /// Processes holding the client sockets (the bench itself when 1 and on SQLite).
    var workers = 1
    var opened = 0
    /// Streams that could not be opened (each tried three times).
    var failedHandshakes = 0
    /// Handshakes that failed and were tried again a second later.
    var retriedHandshakes = 0
    var firstFailure: String?
    var setUpSeconds = 0.0
    var setUpPerSecond = 0.0
    /// Streams still open two seconds after the last handshake.
    var held = 0
    /// Summed over the instances.
    var serverRSSBeforeBytes: Int?
    var serverRSSAfterBytes: Int?
    /// Each instance's RSS with every stream open (several instances only).
    var instanceRSSAfterBytes: [Int]?
    var serverBytesPerConnection: Double?
    /// The workers' RSS with every stream open, summed (several processes only).
    var workerRSSBytes: Int?
    var sends = 0
    var sendErrors = 0
    /// Error answers by status (connections that broke count in `sendErrors` only).
    var sendErrorStatuses: [String: Int] = [:]
    var sendsPerSecond = 0.0
    var sendAck = LatencyPercentiles(count: 0, p50: 0, p99: 0, p999: 0, max: 0)
    /// From the send to each of the recipient's streams.
    var delivery = LatencyPercentiles(count: 0, p50: 0, p99: 0, p999: 0, max: 0)
    var undelivered = 0
    /// Summed over the instances.
    var serverCPUPerSendMilliseconds: Double?
    /// The servers' CPU (in cores, summed over the instances) in the two seconds after the last
    /// handshake, with every stream open and no sends: what keeping the streams costs.
    var serverIdleCores: Double?
    /// Reads of the database by open streams during the sending and its drain, summed over the
    /// instances (`chirp_event_stream_reads_total`): wake-ups the notifications did not carry
    /// the events of, and every stream's re-read every 25 s (`EventHub.sweepPeriod`, `--stream-sweep`).
    var streamReadsDuringSending: Int?
    var streamReadsPerSecond: Double?
    /// Streams open at the end of the sending.
    var stillOpen = 0
    /// How the server ended, if it ended during the bench (nil: it ran to the end).
    var serverEnded: String?

    init(plan: ConnectionsPlan) {
        requested = plan.count
        streamsPerUser = plan.streamsPerUser
        users = plan.accounts.count
    }

    /// The opening's figures: `opened` streams in `seconds` (from the first handshake to the last).
    mutating func record(opened: Int, failed: Int, retried: Int, firstFailure: String?, seconds: Double) {
        self.opened = opened
        failedHandshakes = failed
        retriedHandshakes = retried
        self.firstFailure = firstFailure
        setUpSeconds = seconds
        setUpPerSecond = Double(opened) / max(seconds, 0.001)
    }

    /// Server bytes per held stream, from the RSS before and after.
    mutating func weigh() {
        if let before = serverRSSBeforeBytes, let after = serverRSSAfterBytes, held > 0 {
            serverBytesPerConnection = Double(after - before) / Double(held)
        }
    }

    /// The sending's figures, and the servers' CPU time during it.
    /// The streams' database reads between `before` and `after`, `seconds` apart.
    mutating func recordStreamReads(before: Double?, after: Double?, seconds: Double) {
        guard let before, let after else { return }
        streamReadsDuringSending = Int(after - before)
        streamReadsPerSecond = (after - before) / max(seconds, 0.001)
    }

    mutating func record(_ sending: ConnectionsSending.Outcome, cpuSeconds: Double?) {
        if let cpuSeconds, sending.sent > 0 { serverCPUPerSendMilliseconds = cpuSeconds * 1000 / Double(sending.sent) }
        sends = sending.sent
        sendErrors = sending.errors
        sendErrorStatuses = sending.errorStatuses
        sendsPerSecond = sending.perSecond
        sendAck = sending.acks
    }

    var lines: [String] {
        var lines = [
            "\(requested) event streams requested (\(users) accounts, \(streamsPerUser) each)"
                + (instances > 1 || workers > 1 ? " on \(instances) instances from \(workers) worker processes" : ""),
            String(
                format: "  opened            %d in %.1f s · %.0f connections/s", opened, setUpSeconds, setUpPerSecond)
                + (failedHandshakes > 0 ? " · \(failedHandshakes) failed" : "")
                + (retriedHandshakes > 0 ? " · \(retriedHandshakes) handshakes retried" : "")
                + (failedHandshakes + retriedHandshakes > 0 ? " (first failure: \(firstFailure ?? "?"))" : ""),
            "  held              \(held) after 2 s, \(stillOpen) after the sending",
        ]
        if let before = serverRSSBeforeBytes, let after = serverRSSAfterBytes, let each = serverBytesPerConnection {
            lines.append(
                String(
                    format: "  server RSS        %.1f MiB → %.1f MiB · %.1f KB per connection", Self.mebibytes(before),
                    Self.mebibytes(after), each / 1024)
                    + (instances > 1 ? " (all instances)" : ""))
        }
        if let each = instanceRSSAfterBytes {
            lines.append(
                "  per instance      " + each.map { String(format: "%.1f", Self.mebibytes($0)) }.joined(separator: ", ")
                    + " MiB")
        }
        if let workerRSSBytes {
            lines.append(String(format: "  workers' RSS      %.1f MiB in all", Self.mebibytes(workerRSSBytes)))
        }
        lines += [
            String(format: "  sends             %8.0f /s   (%d sent, %d errors)", sendsPerSecond, sends, sendErrors)
                + (sendErrorStatuses.isEmpty
                    ? ""
                    : " · statuses "
                        + sendErrorStatuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
                            separator: ", ")),
            "  send → ack        " + sendAck.line,
            "  send → delivered  " + delivery.line + (undelivered > 0 ? " · \(undelivered) not delivered" : ""),
            "  server CPU/send   " + (serverCPUPerSendMilliseconds.map { String(format: "%.3f ms", $0) } ?? "n/a")
                + (serverIdleCores.map { String(format: " · %.2f cores with the streams idle", $0) } ?? ""),
        ]
        if let reads = streamReadsDuringSending, let perSecond = streamReadsPerSecond {
            lines.append(String(format: "  stream DB reads   %d during the sending (%.0f/s)", reads, perSecond))
        }
        if let serverEnded { lines.append("  " + serverEnded) }
        return lines
    }

    private static func mebibytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
