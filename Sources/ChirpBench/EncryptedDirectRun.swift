import ChirpCommandSupport
import ChirpModels
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The direct half of `chirp bench encrypted`: `pairs` senders in plaintext conversations and
/// `pairs` in encrypted ones, every user with one device, each sender sending to its own peer
/// on its own keep-alive connection as fast as the answers come, every peer's event stream
/// connected. Rounds of `seconds` take the two kinds in turns (plaintext, encrypted,
/// encrypted, plaintext, …), so a machine getting busier or quieter weighs on both alike. An
/// encrypted send is sealed on its connection just before it is written (`BenchSealer`), so
/// the client's sealing is inside its sends/s.
struct EncryptedDirectRun {
    let client: LoadClient
    let baseURL: URL
    let pairs: Int
    let rounds: Int
    let seconds: Int
    /// CPU seconds the server process has used so far, when bench started it.
    var serverCPUSeconds: @Sendable () -> Double? = { nil }

    /// A sender and the peer it sends to.
    typealias Pair = (sender: BenchDevice, peer: BenchDevice)

    /// What the rounds of one kind measured.
    struct Side: Encodable {
        /// Durable sends per second of each of its rounds, in order.
        var rounds: [Double]
        var sends: Int
        var sendsPerSecond: Double
        /// 409 answers: `devices_changed`, none expected (the bench's devices do not change).
        var devicesChanged: Int
        /// Other refused sends, and connections that broke.
        var errors: Int
        /// From the request's first byte written to the end of its answer (as `chirp bench load`).
        var ack: LatencyPercentiles
        /// From just before the body was made (the envelope sealed) to the end of the answer.
        var bodyToAck: LatencyPercentiles
        /// From just before the body was made to the frame's arrival on the peer's stream.
        var delivered: LatencyPercentiles
        /// The server's CPU time during the kind's rounds per durable send, in milliseconds.
        var serverCPUPerSendMilliseconds: Double?

        func lines(_ label: String) -> [String] {
            [
                String(
                    format: "  %@ %8.0f sends/s   (rounds: %@; %d sent, %d devices_changed, %d errors)",
                    label.padding(toLength: 10, withPad: " ", startingAt: 0), sendsPerSecond,
                    rounds.map { String(format: "%.0f", $0) }.joined(separator: ", "), sends, devicesChanged, errors),
                "             send → ack        " + ack.line,
                "             body made → ack   " + bodyToAck.line,
                "             → delivered       " + delivered.line
                    + (delivered.count < sends ? " · \(sends - delivered.count) not delivered" : ""),
                "             server CPU/send   "
                    + (serverCPUPerSendMilliseconds.map { String(format: "%.3f ms", $0) } ?? "n/a (external server)"),
            ]
        }
    }

    /// Both kinds, and the encrypted one's share of the plaintext one.
    struct Report: Encodable {
        var pairs: Int
        var rounds: Int
        var secondsPerRound: Int
        var plaintext: Side
        var encrypted: Side
        /// Encrypted durable sends per second over plaintext ones.
        var ratio: Double
        /// Server CPU per encrypted send over that per plaintext send, when measured.
        var cpuRatio: Double?

        var lines: [String] {
            [
                "direct sends: \(pairs) pairs in plaintext and \(pairs) encrypted, one device each, \(rounds) rounds of \(secondsPerRound) s in turns"
            ]
                + plaintext.lines("plaintext") + encrypted.lines("encrypted")
                + [
                    String(format: "  encrypted sends/s are %.1f%% of plaintext's", ratio * 100)
                        + (cpuRatio.map { String(format: "; server CPU per send %.1f%% of plaintext's", $0 * 100) }
                            ?? "")
                ]
        }
    }

    /// What precedes the send time in a bench message's frame: its `clientMessageId` starts
    /// with `t` and the time (the text of an encrypted one is sealed).
    static let idStamp = Array(#""clientMessageId":"t"#.utf8)

    /// The recorders and counts of one kind, filled from the connections' event loops.
    private final class Measures: Sendable {
        let outcomes = SendOutcomes()
        let ack = LatencyRecorder()
        let bodyToAck = LatencyRecorder()
        let delivered = LatencyRecorder()
    }

    /// When a connection last began making a body (microseconds on the run's clock): each
    /// connection has one request in flight at a time.
    private final class BodyStart: Sendable {
        let microseconds = Atomic<Int64>(0)
    }

    func run() async throws -> Report {
        let clock = LoadClock()
        let prefix = "e\(UInt32.random(in: 0...UInt32.max) % 100_000)x"
        let accounts = try await client.register((0..<(4 * pairs)).map { "\(prefix)\($0)" })
        let devices = try await BenchDevice.register(accounts, through: client)
        // Pair i: device 2i sends to device 2i + 1; the first `pairs` plaintext, the others encrypted.
        let all: [Pair] = stride(from: 0, to: devices.count, by: 2).map { (devices[$0], devices[$0 + 1]) }
        let client = client
        // The peer follows the sender, so the sender may message it and turn the conversation encrypted.
        _ = try await InFlight.map(all, atOnce: 8) { pair in
            try await client.request(
                .PUT, "/v1/users/\(pair.sender.account.name)/follow", token: pair.peer.account.token, expecting: 204,
                "following \(pair.sender.account.name)")
        }
        _ = try await InFlight.map(Array(all[pairs...]), atOnce: 8) { pair in
            try await client.request(
                .PUT, "/v1/conversations/\(pair.peer.account.name)/encryption", token: pair.sender.account.token,
                expecting: 204, "turning \(pair.sender.account.name)'s conversation encrypted")
        }
        try await probe(plaintext: all[0], encrypted: all[pairs])

        let plaintext = Measures()
        let encrypted = Measures()
        let listeners = [
            try await DeliveryListeners.open(
                baseURL: baseURL, accounts: all[..<pairs].map(\.peer.account), origin: clock,
                recorder: plaintext.delivered, stampAfter: Self.idStamp),
            try await DeliveryListeners.open(
                baseURL: baseURL, accounts: all[pairs...].map(\.peer.account), origin: clock,
                recorder: encrypted.delivered, stampAfter: Self.idStamp),
        ]
        var perRound: [(encrypted: Bool, sends: Int, seconds: Double, cpu: Double?)] = []
        for round in 0..<rounds {
            // Plaintext, encrypted, encrypted, plaintext, and again.
            let isEncrypted = round % 4 == 1 || round % 4 == 2
            let measures = isEncrypted ? encrypted : plaintext
            let before = measures.outcomes.sent.value
            let cpuBefore = serverCPUSeconds()
            let elapsed = try await sendRound(
                round, pairs: Array(isEncrypted ? all[pairs...] : all[..<pairs]), sealed: isEncrypted,
                measures: measures, clock: clock)
            let cpu: Double? = if let cpuBefore, let after = serverCPUSeconds() { after - cpuBefore } else { nil }
            perRound.append((isEncrypted, measures.outcomes.sent.value - before, elapsed, cpu))
        }
        // The last deliveries (up to 5 s).
        let drain = ContinuousClock.now + .seconds(5)
        while Int(plaintext.delivered.count) < plaintext.outcomes.sent.value
            || Int(encrypted.delivered.count) < encrypted.outcomes.sent.value, ContinuousClock.now < drain
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        for listener in listeners { listener.close() }

        func side(_ measures: Measures, encrypted: Bool) -> Side {
            let rounds = perRound.filter { $0.encrypted == encrypted }
            let sends = rounds.map(\.sends).reduce(0, +)
            let seconds = rounds.map(\.seconds).reduce(0, +)
            let cpu = rounds.compactMap(\.cpu)
            return Side(
                rounds: rounds.map { Double($0.sends) / $0.seconds }, sends: sends,
                sendsPerSecond: seconds > 0 ? Double(sends) / seconds : 0,
                devicesChanged: measures.outcomes.devicesChanged.value, errors: measures.outcomes.errors.value,
                ack: measures.ack.summary, bodyToAck: measures.bodyToAck.summary,
                delivered: measures.delivered.summary,
                serverCPUPerSendMilliseconds: cpu.count == rounds.count && sends > 0
                    ? cpu.reduce(0, +) * 1000 / Double(sends) : nil)
        }
        let plain = side(plaintext, encrypted: false)
        let sealed = side(encrypted, encrypted: true)
        var cpuRatio: Double?
        if let plainCPU = plain.serverCPUPerSendMilliseconds, let sealedCPU = sealed.serverCPUPerSendMilliseconds,
            plainCPU > 0
        {
            cpuRatio = sealedCPU / plainCPU
        }
        return Report(
            pairs: pairs, rounds: rounds, secondsPerRound: seconds, plaintext: plain, encrypted: sealed,
            ratio: plain.sendsPerSecond > 0 ? sealed.sendsPerSecond / plain.sendsPerSecond : 0, cpuRatio: cpuRatio)
    }

    /// One round: each of `pairs` sends to its peer for `seconds`; returns how long it took.
    private func sendRound(
        _ round: Int, pairs: [Pair], sealed: Bool, measures: Measures,
        clock: LoadClock
    ) async throws -> Double {
        let deadline = NIODeadline.now() + .seconds(Int64(seconds))
        let started = ContinuousClock.now
        let runs = pairs.enumerated().map { index, pair in
            let head = RequestTemplate.put(host: baseURL, token: pair.sender.account.token)
            let sealer = sealed ? BenchSealer(sender: pair.sender, peer: pair.peer) : nil
            let path = "/v1/conversations/\(pair.peer.account.name)/messages/"
            let bodyStart = BodyStart()
            let plan = LoadPlan(
                request: { turn in
                    let now = clock.microseconds()
                    bodyStart.microseconds.store(now, ordering: .relaxed)
                    let stamp = RequestTemplate.stamp(now)
                    let id = "t\(stamp)r\(round)p\(index)n\(turn)"
                    let text = "t\(stamp) load test message"
                    // A seal that failed sends an empty body, which the server refuses (an error).
                    let body =
                        sealer.map { ByteBuffer(bytes: (try? $0.body(text: text, clientMessageId: id)) ?? Data()) }
                        ?? ByteBuffer(string: #"{"text":"\#(text)"}"#)
                    return (head(path + id, body.readableBytes), body)
                },
                completed: { _, status, nanoseconds in
                    guard measures.outcomes.count(status: status) else { return }
                    measures.ack.record(microseconds: Int64(nanoseconds / 1000))
                    measures.bodyToAck.record(
                        microseconds: clock.microseconds() - bodyStart.microseconds.load(ordering: .relaxed))
                },
                deadline: deadline, interval: nil)
            return LoadConnection.run(plan: plan, host: baseURL.host ?? "127.0.0.1", port: baseURL.port ?? 80)
        }
        for result in try await EventLoopFuture.whenAllComplete(runs, on: MultiThreadedEventLoopGroup.singleton.any())
            .get()
        {
            if case .failure = result { measures.outcomes.errors.add() }
        }
        return (ContinuousClock.now - started).seconds
    }

    /// One send of each kind through the ordinary client before the rounds: a refused envelope
    /// stops the bench with the server's answer, where the rounds could only count its status.
    /// (Their ids do not start with `t`: the listeners do not time them.)
    private func probe(
        plaintext: Pair, encrypted: Pair
    ) async throws {
        let sends: [(pair: Pair, sealer: BenchSealer?, label: String)] = [
            (plaintext, nil, "a plaintext"),
            (encrypted, BenchSealer(sender: encrypted.sender, peer: encrypted.peer), "an encrypted"),
        ]
        for (pair, sealer, label) in sends {
            let id = "probe\(UInt32.random(in: 0...UInt32.max))"
            let body = try sealer.map {
                String(decoding: try $0.body(text: "probe", clientMessageId: id), as: UTF8.self)
            }
            try await client.request(
                .PUT, "/v1/conversations/\(pair.peer.account.name)/messages/\(id)", token: pair.sender.account.token,
                json: body ?? #"{"text":"probe"}"#, expecting: 201, "\(label) direct send")
        }
    }
}
