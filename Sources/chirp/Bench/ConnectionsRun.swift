import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// One `chirp bench connections` run against a started server: open the streams, weigh them,
/// then send at a steady rate and time every delivery to every stream of the recipient.
struct ConnectionsRun {
    let server: ChildServer
    /// Seeded accounts, in order; the first `senders` send (everyone follows them).
    let accounts: [BenchAccount]
    let count: Int
    let streamsPerUser: Int
    let perAddress: Int
    let inFlight: Int
    let rate: Int
    let seconds: Int
    let senders: Int
    let progress: (String) -> Void

    /// Handshakes that failed before opening stops (the first failure's reason is reported).
    private static let failureLimit = 1000

    func run() async throws -> ConnectionsReport {
        let host = server.baseURL.host ?? "127.0.0.1"
        let port = server.baseURL.port ?? 80
        let origin = LoadClock()
        let delivery = LatencyRecorder()
        try await Task.sleep(for: .milliseconds(500))
        var report = ConnectionsReport(requested: count, streamsPerUser: streamsPerUser, users: accounts.count)
        report.serverRSSBeforeBytes = server.residentBytes

        // Connecting: stream i belongs to account i / streamsPerUser and comes from source
        // address i / perAddress, with at most `inFlight` handshakes at a time.
        progress("opening \(count) event streams")
        let markers = accounts.map { Array(#""recipient":"\#($0.name)""#.utf8) }
        let failures = Tally()
        let firstFailure = FirstFailure()
        let started = ContinuousClock.now
        var channels: [any Channel] = []
        channels.reserveCapacity(count)
        try await withThrowingTaskGroup(of: (any Channel)?.self) { group in
            var next = 0
            func addNext() throws {
                let index = next
                next += 1
                let account = index / streamsPerUser
                let marker = markers[account]
                let source = try Self.sourceAddress(index / perAddress)
                let token = accounts[account].token
                group.addTask {
                    do {
                        return try await StreamSocket.open(host: host, port: port, token: token, source: source) { frame in
                            let stamp = frame.withUnsafeReadableBytes { bytes in
                                DeliveryListeners.offset(of: marker, in: bytes) == nil ? nil : DeliveryListeners.stamp(in: bytes)
                            }
                            if let stamp { delivery.record(microseconds: origin.microseconds() - stamp) }
                        }
                    } catch {
                        failures.add()
                        firstFailure.keep(error)
                        return nil
                    }
                }
            }
            while next < min(inFlight, count) { try addNext() }
            while let channel = try await group.next() {
                if let channel { channels.append(channel) }
                if next < count, failures.value < Self.failureLimit { try addNext() }
                if channels.count % 10_000 == 0, channel != nil { progress("\(channels.count) open") }
            }
        }
        let setUp = (ContinuousClock.now - started).seconds
        report.opened = channels.count
        report.failedHandshakes = failures.value
        report.firstFailure = firstFailure.description
        report.setUpSeconds = setUp
        report.setUpPerSecond = Double(channels.count) / max(setUp, 0.001)
        try await Task.sleep(for: .seconds(2))
        report.serverRSSAfterBytes = server.residentBytes
        report.held = channels.filter(\.isActive).count
        if let before = report.serverRSSBeforeBytes, let after = report.serverRSSAfterBytes, report.held > 0 {
            report.serverBytesPerConnection = Double(after - before) / Double(report.held)
        }

        // Sending: each sender to everyone in turn, starting at its own share of the accounts.
        progress("sending \(rate) messages/s for \(seconds) s with \(report.held) streams open")
        let acks = LatencyRecorder()
        let sent = Tally()
        let expected = Tally()
        let sendErrors = Tally()
        let errorStatuses = StatusCounts()
        let cpuAtStart = server.cpuSeconds
        let startedSending = ContinuousClock.now
        let deadline = NIODeadline.now() + .seconds(Int64(seconds))
        let interval = TimeAmount.nanoseconds(Int64(1e9 * Double(senders) / Double(rate)))
        let streamCounts = accounts.indices.map { min(streamsPerUser, count - $0 * streamsPerUser) }
        var sends: [EventLoopFuture<Void>] = []
        for index in 0..<senders {
            // Everyone but the sender, starting at the sender's own share of the accounts.
            let shift = index * accounts.count / senders
            let order: [Int] = (Array(accounts.indices[shift...]) + Array(accounts.indices[..<shift])).filter { $0 != index }
            let recipients: [String] = order.map { accounts[$0].name }
            let request = RequestTemplate.message(
                host: server.baseURL, token: accounts[index].token, recipients: recipients, idPrefix: "cb\(index)n", clock: origin)
            let plan = LoadPlan(
                request: request,
                completed: { turn, status, nanoseconds in
                    guard status == 201 else { return errorStatuses.add(status) }
                    acks.record(microseconds: Int64(nanoseconds / 1000))
                    sent.add()
                    expected.add(streamCounts[order[turn % order.count]])
                },
                deadline: deadline, interval: interval,
                phase: .nanoseconds(interval.nanoseconds * Int64(index) / Int64(senders)))
            sends.append(LoadConnection.run(plan: plan, host: host, port: port))
        }
        for result in try await EventLoopFuture.whenAllComplete(sends, on: MultiThreadedEventLoopGroup.singleton.any()).get() {
            if case .failure = result { sendErrors.add() }
        }
        let sending = (ContinuousClock.now - startedSending).seconds
        let drain = ContinuousClock.now + .seconds(5)
        while Int(delivery.count) < expected.value, ContinuousClock.now < drain { try await Task.sleep(for: .milliseconds(20)) }
        if let cpuAtStart, let cpuAtEnd = server.cpuSeconds, sent.value > 0 {
            report.serverCPUPerSendMilliseconds = (cpuAtEnd - cpuAtStart) * 1000 / Double(sent.value)
        }
        report.sends = sent.value
        report.sendErrors = sendErrors.value + errorStatuses.total
        report.sendErrorStatuses = errorStatuses.byStatus
        report.sendsPerSecond = Double(sent.value) / max(sending, 0.001)
        report.sendAck = acks.summary
        report.delivery = delivery.summary
        report.undelivered = max(0, expected.value - Int(delivery.count))
        report.stillOpen = channels.filter(\.isActive).count

        progress("closing")
        for batch in stride(from: 0, to: channels.count, by: 5_000) {
            for channel in channels[batch..<min(batch + 5_000, channels.count)] { channel.close(promise: nil) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return report
    }

    /// The `index`-th loopback source address: 127.1.0.1, 127.1.0.2, … (250 per third octet).
    static func sourceAddress(_ index: Int) throws -> SocketAddress {
        let third = index / 250
        return try SocketAddress(ipAddress: "127.\(1 + third / 256).\(third % 256).\(1 + index % 250)", port: 0)
    }
}

/// How many answers had each (unexpected) status.
final class StatusCounts: Sendable {
    private let counts = Mutex<[Int: Int]>([:])

    func add(_ status: Int) { counts.withLock { $0[status, default: 0] += 1 } }

    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    /// "status": count, for the report.
    var byStatus: [String: Int] { counts.withLock { Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) }) } }
}

/// The first error of many concurrent attempts, for the report.
final class FirstFailure: Sendable {
    private let error = Mutex<String?>(nil)

    func keep(_ failure: any Error) { error.withLock { if $0 == nil { $0 = String(describing: failure) } } }

    var description: String? { error.withLock { $0 } }
}
