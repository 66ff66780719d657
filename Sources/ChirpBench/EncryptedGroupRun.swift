import ChirpCommandSupport
import ChirpModels
import Foundation

/// The group half of `chirp bench encrypted`: two groups of `members`, one device each, one
/// left in plaintext and one turned encrypted by its admin, every member's event stream
/// connected. Open loop, `rate` messages a second to each group for `seconds`, the two groups
/// in turns and their members in turn as senders; an encrypted message is sealed to the other
/// members' devices just before it is sent (`BenchSealer`). Each is timed from just before its
/// body is made (sealing included) to its arrival at every member but its sender, and, for the
/// encrypted group, to each member having opened it (`GroupArrivals.openAll`, up to `opens`
/// arrivals).
struct EncryptedGroupRun {
    let client: LoadClient
    let baseURL: URL
    let members: Int
    /// Messages per second to each group.
    let rate: Int
    let seconds: Double
    /// Arrivals of the encrypted group opened afterwards, at most.
    let opens: Int

    /// What one group measured.
    struct Side: Encodable {
        var sent: Int
        var devicesChanged: Int
        var errors: Int
        /// The first refused send's status and body.
        var refusal: String?
        /// Arrivals at the members but the sender: `sent × (members − 1)` when none is missed.
        var deliveries: Int
        var expectedDeliveries: Int
        /// Messages that reached every member but their sender.
        var deliveredToAll: Int
        /// Members' streams that had ended by the end of the run (none expected).
        var streamsEnded: Int
        /// Why they ended, with how many each cause ended (`StreamEnding.summary`).
        var streamEndings: [String]
        /// From just before the body was made to the arrival at each member.
        var delivered: LatencyPercentiles
        /// The encrypted group's: the sender sealing to the other members' devices.
        var sealing: LatencyPercentiles?
        /// The encrypted group's: to each member having opened it (arrival + the member's open).
        var opened: LatencyPercentiles?
        /// The encrypted group's: arrivals that did not open (none expected).
        var notOpened: Int?

        func lines(_ label: String) -> [String] {
            var lines = [
                "  \(label.padding(toLength: 10, withPad: " ", startingAt: 0)) \(sent) sent (\(devicesChanged) devices_changed, \(errors) errors), \(deliveredToAll) to every member; \(deliveries) of \(expectedDeliveries) deliveries"
                    + (streamsEnded > 0
                        ? ", \(streamsEnded) streams ended: " + streamEndings.joined(separator: "; ") : "")
                    + (refusal.map { "; first refused: \($0)" } ?? ""),
                "             → delivered       " + delivered.line,
            ]
            if let sealing { lines.append("             sealing           " + sealing.line) }
            if let opened {
                lines.append("             → opened          " + opened.line + " · \(notOpened ?? 0) did not open")
            }
            return lines
        }
    }

    struct Report: Encodable {
        var members: Int
        var rate: Int
        var seconds: Double
        var plaintext: Side
        var encrypted: Side

        var lines: [String] {
            [
                "group messages: a group of \(members) in plaintext and one encrypted, one device and one stream per member, \(rate)/s to each for \(String(format: "%.0f", seconds)) s"
            ] + plaintext.lines("plaintext") + encrypted.lines("encrypted")
        }
    }

    func run() async throws -> Report {
        let clock = LoadClock()
        let groups = try await GroupsBenchSetUp.make(client: client, groups: 2, members: members)
        let plainDevices = try await BenchDevice.register(groups[0].members, through: client)
        let sealedDevices = try await BenchDevice.register(groups[1].members, through: client)
        try await client.request(
            .PUT, "/v1/groups/\(groups[1].id)/encryption", token: groups[1].members[0].token, expecting: 204,
            "turning the group encrypted")
        let arrivals = GroupArrivals()
        let plainStreams = try await arrivals.listen(
            baseURL: baseURL, members: plainDevices, encrypted: false, clock: clock)
        let sealedStreams = try await arrivals.listen(
            baseURL: baseURL, members: sealedDevices, encrypted: true, clock: clock)
        let sealers = sealedDevices.map {
            BenchSealer(sender: $0, members: sealedDevices, conversationId: .group(groups[1].id))
        }
        let plaintext = SendOutcomes()
        let encrypted = SendOutcomes()
        let sealing = LatencyRecorder()
        let client = client
        let members = members

        // The two groups in turns: 2 × rate messages a second in all.
        let total = 2 * max(1, Int((Double(rate) * seconds).rounded()))
        let phase = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for index in 0..<total {
                try await Task.sleep(
                    until: phase + .microseconds(Int64(index) * 1_000_000 / Int64(2 * rate)), clock: .continuous)
                let isEncrypted = index % 2 == 1
                let member = (index / 2) % members
                let group = groups[isEncrypted ? 1 : 0]
                tasks.addTask {
                    let stamp = clock.microseconds()
                    let id = "\(isEncrypted ? "E" : "P")\(stamp)i\(index)"
                    let text = "\(id) group bench message"
                    var body = #"{"text":"\#(text)"}"#
                    if isEncrypted {
                        body = String(
                            decoding: try sealers[member].body(text: text, clientMessageId: id), as: UTF8.self)
                        sealing.record(microseconds: clock.microseconds() - stamp)
                    }
                    let reply = try await client.request(
                        .PUT, "/v1/groups/\(group.id)/messages/\(id)", token: group.members[member].token, json: body)
                    (isEncrypted ? encrypted : plaintext).count(status: reply.status, body: reply.body)
                }
            }
            try await tasks.waitForAll()
        }
        try await arrivals.settle(
            plaintext: plaintext.sent.value * (members - 1), encrypted: encrypted.sent.value * (members - 1))
        // Before the bench closes them itself.
        let ended = (
            plaintext: plainStreams.filter { !$0.channel.isActive }.map(\.ending),
            encrypted: sealedStreams.filter { !$0.channel.isActive }.map(\.ending)
        )
        for stream in plainStreams + sealedStreams { stream.channel.close(promise: nil) }
        let (opened, notOpened) = arrivals.openAll(members: sealedDevices, limit: opens)

        func side(_ outcomes: SendOutcomes, encrypted: Bool) -> Side {
            let delivered = encrypted ? arrivals.encryptedDelivered : arrivals.plaintextDelivered
            return Side(
                sent: outcomes.sent.value, devicesChanged: outcomes.devicesChanged.value,
                errors: outcomes.errors.value, refusal: outcomes.refusal, deliveries: Int(delivered.count),
                expectedDeliveries: outcomes.sent.value * (members - 1),
                deliveredToAll: arrivals.deliveredToAll(encrypted: encrypted, members: members),
                streamsEnded: (encrypted ? ended.encrypted : ended.plaintext).count,
                streamEndings: StreamEnding.summary(encrypted ? ended.encrypted : ended.plaintext),
                delivered: delivered.summary)
        }
        var sealedSide = side(encrypted, encrypted: true)
        sealedSide.sealing = sealing.summary
        sealedSide.opened = opened.summary
        sealedSide.notOpened = notOpened
        return Report(
            members: members, rate: rate, seconds: seconds,
            plaintext: side(plaintext, encrypted: false), encrypted: sealedSide)
    }
}
