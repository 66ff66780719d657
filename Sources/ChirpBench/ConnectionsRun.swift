import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// One `chirp bench connections` run against a started server: open the streams, weigh them,
/// then send at a steady rate and time every delivery to every stream of the recipient.
struct ConnectionsRun {
    let server: ChildServer
    let plan: ConnectionsPlan
    let progress: (String) -> Void

    /// The server's counter of the streams' database reads.
    static let streamReads = "chirp_event_stream_reads_total"

    func run() async throws -> ConnectionsReport {
        let origin = LoadClock()
        let delivery = LatencyRecorder()
        try await Task.sleep(for: .milliseconds(500))
        var report = ConnectionsReport(plan: plan)
        report.serverRSSBeforeBytes = server.residentBytes

        let opening = try await StreamOpening(
            servers: [StreamOpening.Server(server.baseURL)], plan: plan, range: 0..<plan.count, clock: origin,
            delivery: delivery, progress: progress
        ).run()
        let channels = opening.channels
        report.record(
            opened: channels.count, failed: opening.failed, retried: opening.retried,
            firstFailure: opening.firstFailure, seconds: opening.seconds)
        let idleCPU = server.cpuSeconds
        try await Task.sleep(for: .seconds(2))
        report.serverIdleCores = idleCPU.flatMap { start in server.cpuSeconds.map { ($0 - start) / 2 } }
        report.serverRSSAfterBytes = server.residentBytes
        report.held = channels.filter(\.isActive).count
        report.weigh()

        progress("sending \(plan.rate) messages/s for \(plan.seconds) s with \(report.held) streams open")
        let cpuAtStart = server.cpuSeconds
        let readsBefore = await server.metric(Self.streamReads)
        let sendingStarted = ContinuousClock.now
        let sending = try await ConnectionsSending(servers: [server.baseURL], plan: plan, clock: origin).run()
        let drain = ContinuousClock.now + .seconds(5)
        while Int(delivery.count) < sending.expected, ContinuousClock.now < drain {
            try await Task.sleep(for: .milliseconds(20))
        }
        report.record(sending, cpuSeconds: cpuAtStart.flatMap { start in server.cpuSeconds.map { $0 - start } })
        report.recordStreamReads(
            before: readsBefore, after: await server.metric(Self.streamReads),
            seconds: (ContinuousClock.now - sendingStarted).seconds)
        report.delivery = delivery.summary
        report.undelivered = max(0, sending.expected - Int(delivery.count))
        report.stillOpen = channels.filter(\.isActive).count

        progress("closing")
        try await StreamOpening.close(channels)
        return report
    }
}

/// How many answers had each (unexpected) status.
final class StatusCounts: Sendable {
    private let counts = Mutex<[Int: Int]>([:])

    func add(_ status: Int) { counts.withLock { $0[status, default: 0] += 1 } }

    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    /// "status": count, for the report.
    var byStatus: [String: Int] {
        counts.withLock { Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) }) }
    }
}

/// The first error of many concurrent attempts, for the report.
final class FirstFailure: Sendable {
    private let error = Mutex<String?>(nil)

    func keep(_ failure: any Error) { error.withLock { if $0 == nil { $0 = String(describing: failure) } } }

    var description: String? { error.withLock { $0 } }
}
