import ArgumentParser
import ChirpCommandSupport
import ChirpModels
import Foundation
import NIOCore
import Synchronization

/// `chirp bench groups`: group messages (issue 38) into groups of `--members` with every
/// member's event stream connected over a WebSocket. Two phases: as many durable group
/// messages per second as `--concurrency` senders get acknowledged (201: stored with one event
/// per member) in `--seconds`; then `--rate` group messages per second, open loop, for
/// `--latency-seconds`, each timed from its send to its `message.created` reaching the last of
/// its group's members.
struct GroupsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract:
            "Measure durable group messages/s into groups with every member's stream connected, and send → delivered-to-all p99.",
        discussion: """
            Against --server, run that server with --no-rate-limits, --max-group-members at least --members and \
            --max-connections-per-address 0 (or above --groups × --members plus --concurrency).
            """)

    @Option(help: "Server to measure against; without it a `chirp serve` child process is started.")
    var server: String?
    @Option(help: "Members per group, its sender included.")
    var members = 50
    @Option(help: "Groups (each with members of its own).")
    var groups = 4
    @Option(help: "Seconds of the throughput phase.")
    var seconds = 10.0
    @Option(help: "Sends in flight at once in the throughput phase.")
    var concurrency = 16
    @Option(help: "Group messages per second in the latency phase.")
    var rate = 100
    @Option(help: "Seconds of the latency phase.")
    var latencySeconds = 10.0
    @Flag(help: "Print the figures as JSON.")
    var json = false

    struct Report: Encodable {
        var members: Int
        var groups: Int
        var streams: Int
        var durableMessages: Int
        var messagesPerSecond: Double
        var eventsPerSecond: Double
        var throughputDeliveredToAll: Int
        var rate: Int
        var latencySent: Int
        var latencyDeliveredToAll: Int
        var delivered: LatencyPercentiles
        /// `message.created` frames each stream received, fewest and most, and the streams that
        /// got fewer than the messages stored in their group (every member gets every one).
        var fewestPerStream: Int
        var mostPerStream: Int
        var streamsMissingMessages: Int

        var lines: [String] {
            [
                "group messages into \(groups) groups of \(members), \(streams) streams connected",
                String(
                    format:
                        "  durable   %.1f group messages/s (%d acknowledged; %.0f member events/s), %d delivered to every member",
                    messagesPerSecond, durableMessages, eventsPerSecond, throughputDeliveredToAll),
                "  at \(rate)/s: \(latencySent) sent, \(latencyDeliveredToAll) delivered to every member",
                "  send → delivered to all \(members): " + delivered.line,
                "  per stream: \(fewestPerStream)–\(mostPerStream) message.created; streams missing some: \(streamsMissingMessages)",
            ]
        }
    }

    func validate() throws {
        guard members >= 2, groups >= 1, concurrency >= 1, rate >= 1, seconds > 0, latencySeconds > 0 else {
            throw ValidationError(
                "--members is at least 2; --groups, --concurrency, --rate at least 1; the seconds above 0")
        }
    }

    func run() async throws {
        // The server runs as a child process of this binary, as `chirp bench` runs it: in this
        // process, beside the 1,024 streams of 4 groups of 256 and their reading, some streams
        // of a 256-member run received nothing (none at 128, nor against a `chirp serve`).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-bench-groups-\(UUID().uuidString)")
        let child =
            server == nil
            ? try await ChildServer(
                arguments: LoadBench.serveArguments(dataDirectory: directory) + Self.serveArguments(members: members),
                ownedDirectory: directory)
            : nil
        let baseURL =
            try child?.baseURL ?? URL(string: server!).orThrow("--server takes a URL such as http://127.0.0.1:8080")
        let client = LoadClient(baseURL: baseURL, connections: concurrency + 8)
        let setUp = try await GroupsBenchSetUp.make(client: client, groups: groups, members: members)
        let deliveries = GroupDeliveries(members: members)
        let clock = LoadClock()
        var channels: [any Channel] = []
        var tallies: [(group: Int, tally: Tally)] = []
        for (index, group) in setUp.enumerated() {
            for account in group.members {
                let tally = Tally()
                tallies.append((index, tally))
                channels.append(
                    try await StreamSocket.open(
                        host: baseURL.host ?? "127.0.0.1", port: baseURL.port ?? 80, token: account.token
                    ) { frame in
                        guard let text = frame.withUnsafeReadableBytes(GroupDeliveries.createdText) else { return }
                        tally.add()
                        deliveries.arrived(text, at: clock.microseconds())
                    })
            }
        }

        // Throughput: `concurrency` senders, each as one member after another of its group.
        let durable = Tally()
        let sentPerGroup = (0..<groups).map { _ in Tally() }
        let end = ContinuousClock.now + .seconds(seconds)
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for worker in 0..<concurrency {
                tasks.addTask {
                    let index = worker % setUp.count
                    let group = setUp[index]
                    var count = 0
                    while ContinuousClock.now < end {
                        let sender = group.members[(worker / setUp.count + count) % group.members.count]
                        count += 1
                        let text = "T\(clock.microseconds())w\(worker)n\(count)"
                        if try await Self.send(client, group: group.id, as: sender, text: text) {
                            durable.add()
                            sentPerGroup[index].add()
                        }
                    }
                }
            }
            try await tasks.waitForAll()
        }
        let elapsed = (ContinuousClock.now - started).seconds
        try await deliveries.settle(expected: durable.value)
        let throughputDelivered = deliveries.complete

        // Latency: `rate` messages a second, open loop, the groups and their members in turn.
        let total = max(1, Int((Double(rate) * latencySeconds).rounded()))
        let sent = Tally()
        let phase = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for index in 0..<total {
                try await Task.sleep(
                    until: phase + .microseconds(Int64(index) * 1_000_000 / Int64(rate)), clock: .continuous)
                let groupIndex = index % setUp.count
                let group = setUp[groupIndex]
                let sender = group.members[(index / setUp.count) % group.members.count]
                tasks.addTask {
                    let text = "L\(clock.microseconds())i\(index)"
                    if try await Self.send(client, group: group.id, as: sender, text: text) {
                        sent.add()
                        sentPerGroup[groupIndex].add()
                    }
                }
            }
            try await tasks.waitForAll()
        }
        try await deliveries.settle(expected: throughputDelivered + sent.value)

        for channel in channels { channel.close(promise: nil) }
        await client.shutdown()
        await child?.stop()
        let counts = tallies.map { $0.tally.value }
        let expected = tallies.map { sentPerGroup[$0.group].value }
        let report = Report(
            members: members, groups: groups, streams: channels.count, durableMessages: durable.value,
            messagesPerSecond: Double(durable.value) / elapsed,
            eventsPerSecond: Double(durable.value * members) / elapsed,
            throughputDeliveredToAll: throughputDelivered, rate: rate, latencySent: sent.value,
            latencyDeliveredToAll: deliveries.complete - throughputDelivered, delivered: deliveries.latency.summary,
            fewestPerStream: counts.min() ?? 0, mostPerStream: counts.max() ?? 0,
            streamsMissingMessages: zip(counts, expected).filter { $0 < $1 }.count)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            report.lines.forEach { print($0) }
        }
    }

    /// What a child server of a group bench is started with beside `LoadBench.serveArguments`:
    /// cheap registrations, groups of `members`, and every member's stream from one address.
    static func serveArguments(members: Int) -> [String] {
        [
            "--no-rate-limits", "--test-bcrypt-cost", "4", "--max-group-members", String(max(256, members)),
            // Every member's stream comes from this one address.
            "--max-connections-per-address", "0",
        ]
    }

    /// Sends `text` to the group as `sender`; whether it was stored (201).
    static func send(_ client: LoadClient, group: String, as sender: BenchAccount, text: String) async throws -> Bool {
        let reply = try await client.request(
            .PUT, "/v1/groups/\(group)/messages/\(UUID().uuidString)", token: sender.token,
            json: #"{"text":"\#(text)"}"#)
        return reply.status == 201
    }
}

/// The benchmark's groups: each with its members' accounts, the first its creator.
struct GroupsBenchSetUp: Sendable {
    var id: String
    var members: [BenchAccount]

    /// Registrations in flight at once while setting up.
    static let inFlight = 8

    static func make(client: LoadClient, groups: Int, members: Int) async throws -> [GroupsBenchSetUp] {
        let run = UInt32.random(in: 0...UInt32.max) % 100_000
        var made: [GroupsBenchSetUp] = []
        for index in 0..<groups {
            // At most `inFlight` registrations at once: all of a 256-member group's queued on the
            // client's pool timed out waiting for the server's bcrypt.
            let accounts = try await client.register(
                (0..<members).map { "g\(run)_\(index)_\($0)" }, inFlight: inFlight)
            let creator = accounts[0]
            for member in accounts.dropFirst() {
                let followed = try await client.request(.PUT, "/v1/users/\(creator.name)/follow", token: member.token)
                guard followed.status == 204 else {
                    throw CommandFailure("follow failed: \(followed.status) \(followed.body.prefix(200))")
                }
            }
            let names = accounts.dropFirst().map { "\"\($0.name)\"" }.joined(separator: ",")
            let created = try await client.request(
                .PUT, "/v1/groups/\(UUID().uuidString)", token: creator.token,
                json: #"{"title":"bench \#(index)","members":[\#(names)]}"#)
            guard created.status == 201,
                let group = try? JSONDecoder().decode(Group.self, from: Data(created.body.utf8))
            else {
                throw CommandFailure("creating group \(index) failed: \(created.status) \(created.body.prefix(200))")
            }
            made.append(GroupsBenchSetUp(id: group.id, members: accounts))
        }
        return made
    }
}

/// How many members each benchmark message reached; when the last one does, the time since its
/// stamp (the microseconds after its first letter) goes into `latency` (latency-phase messages,
/// `L…`, only).
final class GroupDeliveries: Sendable {
    private let members: Int
    private let state = Mutex<(counts: [String: Int], complete: Int)>(([:], 0))
    let latency = LatencyRecorder()

    init(members: Int) { self.members = members }

    var complete: Int { state.withLock { $0.complete } }

    func arrived(_ text: String, at now: Int64) {
        let done = state.withLock { state -> Bool in
            let count = state.counts[text, default: 0] + 1
            guard count == members else {
                state.counts[text] = count
                return false
            }
            state.counts[text] = nil
            state.complete += 1
            return true
        }
        guard done, text.first == "L", let stamp = Int64(text.dropFirst().prefix { $0.isNumber }) else { return }
        latency.record(microseconds: now - stamp)
    }

    /// Waits (up to 30 s) until `expected` messages reached every member.
    func settle(expected: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while complete < expected, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    private static let created = Array(#""type":"message.created""#.utf8)
    private static let textField = Array(#""text":""#.utf8)

    /// The text of a `message.created` frame, if it is one.
    static func createdText(_ frame: UnsafeRawBufferPointer) -> String? { created(textField, in: frame) }

    /// The string after `field` (`"name":"`, up to the next quote) of a `message.created`
    /// frame, if it is one and has it.
    static func created(_ field: [UInt8], in frame: UnsafeRawBufferPointer) -> String? {
        guard DeliveryListeners.offset(of: created, in: frame) != nil,
            let start = DeliveryListeners.offset(of: field, in: frame).map({ $0 + field.count })
        else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: frame[start...])
        let end = rest.firstIndex(of: UInt8(ascii: "\"")) ?? rest.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: rest[..<end]), as: UTF8.self)
    }
}
