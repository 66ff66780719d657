import ChirpCommandSupport
import Foundation
import NIOCore
import NIOPosix

/// The sending half of `chirp bench connections`: the plan's `senders` accounts (the first ones;
/// everyone follows them) send `rate` messages/s in total for `seconds`, each to everyone in turn from its
/// own share of the accounts, on one keep-alive connection to server `index % servers.count`.
/// Each text carries its send time on `clock`, which the streams read back.
struct ConnectionsSending {
    let servers: [URL]
    let plan: ConnectionsPlan
    let clock: LoadClock

    /// What the sending gave.
    struct Outcome {
        var sent = 0
        /// Deliveries the acknowledged sends owe: the streams of each recipient.
        var expected = 0
        var errors = 0
        var errorStatuses: [String: Int] = [:]
        var perSecond = 0.0
        var acks = LatencyPercentiles(count: 0, p50: 0, p99: 0, p999: 0, max: 0)
    }

    func run() async throws -> Outcome {
        let (accounts, count, streamsPerUser, senders) = (plan.accounts, plan.count, plan.streamsPerUser, plan.senders)
        let acks = LatencyRecorder()
        let sent = Tally()
        let expected = Tally()
        let sendErrors = Tally()
        let errorStatuses = StatusCounts()
        let started = ContinuousClock.now
        let deadline = NIODeadline.now() + .seconds(Int64(plan.seconds))
        let interval = TimeAmount.nanoseconds(Int64(1e9 * Double(senders) / Double(plan.rate)))
        let streamCounts = accounts.indices.map { min(streamsPerUser, count - $0 * streamsPerUser) }
        var sends: [EventLoopFuture<Void>] = []
        for index in 0..<senders {
            // Everyone but the sender, starting at the sender's own share of the accounts.
            let shift = index * accounts.count / senders
            let order: [Int] = (Array(accounts.indices[shift...]) + Array(accounts.indices[..<shift])).filter {
                $0 != index
            }
            let recipients: [String] = order.map { accounts[$0].name }
            let server = servers[index % servers.count]
            let request = RequestTemplate.message(
                host: server, token: accounts[index].token, recipients: recipients, idPrefix: "cb\(index)n",
                clock: clock)
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
            let target = StreamOpening.Server(server)
            sends.append(LoadConnection.run(plan: plan, host: target.host, port: target.port))
        }
        for result in try await EventLoopFuture.whenAllComplete(sends, on: MultiThreadedEventLoopGroup.singleton.any())
            .get()
        {
            if case .failure = result { sendErrors.add() }
        }
        let elapsed = (ContinuousClock.now - started).seconds
        return Outcome(
            sent: sent.value, expected: expected.value, errors: sendErrors.value + errorStatuses.total,
            errorStatuses: errorStatuses.byStatus, perSecond: Double(sent.value) / max(elapsed, 0.001),
            acks: acks.summary)
    }
}
