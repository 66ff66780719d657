import ChirpCommandSupport
import Foundation
import NIOCore
import NIOPosix

/// Opens streams `range` of a `chirp bench connections` run, at most `plan.inFlight` handshakes
/// at a time: stream i belongs to account i / streamsPerUser, goes to server i % servers.count,
/// and comes from loopback source address i / perAddress. Every message frame to the stream's
/// account is timed from the send stamp in its text to its arrival, on `clock`, into `delivery`.
struct StreamOpening {
    /// Where a stream connects.
    struct Server: Sendable {
        let host: String
        let port: Int

        init(_ url: URL) {
            host = url.host ?? "127.0.0.1"
            port = url.port ?? 80
        }
    }

    /// What the opening gave.
    struct Outcome {
        var channels: [any Channel] = []
        /// Streams that could not be opened in `attempts` handshakes.
        var failed = 0
        /// Handshakes that failed and were tried again.
        var retried = 0
        var firstFailure: String?
        var seconds = 0.0
    }

    let servers: [Server]
    let plan: ConnectionsPlan
    let range: Range<Int>
    let clock: LoadClock
    let delivery: LatencyRecorder
    let progress: (String) -> Void

    /// Streams that failed before opening stops (the first failure's reason is reported).
    private static let failureLimit = 1000
    /// Handshakes tried for one stream before it counts as failed.
    private static let attempts = 3

    func run() async throws -> Outcome {
        progress("opening \(range.count) event streams")
        let (accounts, streamsPerUser, perAddress) = (plan.accounts, plan.streamsPerUser, plan.perAddress)
        let markers = accounts.map { Array(#""recipient":"\#($0.name)""#.utf8) }
        let failures = Tally()
        let retries = Tally()
        let firstFailure = FirstFailure()
        let started = ContinuousClock.now
        var outcome = Outcome()
        outcome.channels.reserveCapacity(range.count)
        let (clock, delivery) = (clock, delivery)
        try await withThrowingTaskGroup(of: (any Channel)?.self) { group in
            var next = range.lowerBound
            func addNext() throws {
                let index = next
                next += 1
                let account = index / streamsPerUser
                let marker = markers[account]
                let source = try Self.sourceAddress(index / perAddress)
                let token = accounts[account].token
                let server = servers[index % servers.count]
                let onText: @Sendable (ByteBuffer) -> Void = { frame in
                    let stamp = frame.withUnsafeReadableBytes { bytes in
                        DeliveryListeners.offset(of: marker, in: bytes) == nil
                            ? nil : DeliveryListeners.stamp(in: bytes)
                    }
                    if let stamp { delivery.record(microseconds: clock.microseconds() - stamp) }
                }
                group.addTask {
                    // As a client would: a refused or failed handshake is tried again a second later.
                    for attempt in 1...Self.attempts {
                        do {
                            return try await StreamSocket.open(
                                host: server.host, port: server.port, token: token, source: source, onText: onText)
                        } catch {
                            firstFailure.keep(error)
                            guard attempt < Self.attempts else { break }
                            retries.add()
                            try? await Task.sleep(for: .seconds(1))
                        }
                    }
                    failures.add()
                    return nil
                }
            }
            while next < min(range.lowerBound + plan.inFlight, range.upperBound) { try addNext() }
            while let channel = try await group.next() {
                if let channel { outcome.channels.append(channel) }
                if next < range.upperBound, failures.value < Self.failureLimit { try addNext() }
                if outcome.channels.count % 10_000 == 0, channel != nil { progress("\(outcome.channels.count) open") }
            }
        }
        outcome.seconds = (ContinuousClock.now - started).seconds
        outcome.failed = failures.value
        outcome.retried = retries.value
        outcome.firstFailure = firstFailure.description
        return outcome
    }

    /// The `index`-th loopback source address: 127.1.0.1, 127.1.0.2, … (250 per third octet).
    static func sourceAddress(_ index: Int) throws -> SocketAddress {
        let third = index / 250
        return try SocketAddress(ipAddress: "127.\(1 + third / 256).\(third % 256).\(1 + index % 250)", port: 0)
    }

    /// Closes `channels` 5,000 at a time, so the servers are not flooded with closes at once.
    static func close(_ channels: [any Channel]) async throws {
        for batch in stride(from: 0, to: channels.count, by: 5_000) {
            for channel in channels[batch..<min(batch + 5_000, channels.count)] { channel.close(promise: nil) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
