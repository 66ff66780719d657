import Foundation

/// What `chirp bench connections` measured.
struct ConnectionsReport: Encodable {
    var requested: Int
    var streamsPerUser: Int
    var users: Int
    var opened = 0
    var failedHandshakes = 0
    var firstFailure: String?
    var setUpSeconds = 0.0
    var setUpPerSecond = 0.0
    /// Streams still open two seconds after the last handshake.
    var held = 0
    var serverRSSBeforeBytes: Int?
    var serverRSSAfterBytes: Int?
    var serverBytesPerConnection: Double?
    var sends = 0
    var sendErrors = 0
    /// Error answers by status (connections that broke count in `sendErrors` only).
    var sendErrorStatuses: [String: Int] = [:]
    var sendsPerSecond = 0.0
    var sendAck = LatencyPercentiles(count: 0, p50: 0, p99: 0, p999: 0, max: 0)
    /// From the send to each of the recipient's streams.
    var delivery = LatencyPercentiles(count: 0, p50: 0, p99: 0, p999: 0, max: 0)
    var undelivered = 0
    var serverCPUPerSendMilliseconds: Double?
    /// Streams open at the end of the sending.
    var stillOpen = 0
    /// How the server ended, if it ended during the bench (nil: it ran to the end).
    var serverEnded: String?

    var lines: [String] {
        var lines = [
            "\(requested) event streams requested (\(users) accounts, \(streamsPerUser) each)",
            String(format: "  opened            %d in %.1f s · %.0f connections/s", opened, setUpSeconds, setUpPerSecond)
                + (failedHandshakes > 0 ? " · \(failedHandshakes) failed: \(firstFailure ?? "?")" : ""),
            "  held              \(held) after 2 s, \(stillOpen) after the sending",
        ]
        if let before = serverRSSBeforeBytes, let after = serverRSSAfterBytes, let each = serverBytesPerConnection {
            lines.append(String(format: "  server RSS        %.1f MiB → %.1f MiB · %.1f KB per connection", Double(before) / 1_048_576, Double(after) / 1_048_576, each / 1024))
        }
        lines += [
            String(format: "  sends             %8.0f /s   (%d sent, %d errors)", sendsPerSecond, sends, sendErrors)
                + (sendErrorStatuses.isEmpty ? "" : " · statuses " + sendErrorStatuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")),
            "  send → ack        " + sendAck.line,
            "  send → delivered  " + delivery.line + (undelivered > 0 ? " · \(undelivered) not delivered" : ""),
            "  server CPU/send   " + (serverCPUPerSendMilliseconds.map { String(format: "%.3f ms", $0) } ?? "n/a"),
        ]
        if let serverEnded { lines.append("  " + serverEnded) }
        return lines
    }
}
