import ChirpEncryption
import ChirpModels
import Foundation
import NIOCore
import Synchronization

/// The event streams of `chirp bench encrypted`'s two groups: every member listening, each
/// `message.created` of a bench message (its `clientMessageId` `P` or `E`, for the plaintext or
/// the encrypted group, then the send's stamp) timed from the stamp to its arrival at each
/// member but its sender. Of the encrypted group, each arrival is kept with the first frame of
/// its message, for the members to open afterwards (`openAll`).
final class GroupArrivals: Sendable {
    let plaintextDelivered = LatencyRecorder()
    let encryptedDelivered = LatencyRecorder()

    /// One arrival at a member of the encrypted group.
    private struct Arrival {
        var member: Int
        var clientMessageId: String
        var microseconds: Int64
    }

    private struct State {
        /// Arrivals of each message, by its `clientMessageId`.
        var counts: [String: Int] = [:]
        var arrivals: [Arrival] = []
        /// The first frame of each encrypted message, by its `clientMessageId`.
        var frames: [String: [UInt8]] = [:]
    }

    private let state = Mutex(State())

    private static let idField = Array(#""clientMessageId":""#.utf8)

    /// Opens the stream of each of `members` (a group's devices, in order), the encrypted
    /// group's when `encrypted`; returns each one's channel and where why it ended is noted.
    func listen(
        baseURL: URL, members: [BenchDevice], encrypted: Bool, clock: LoadClock
    ) async throws -> [(channel: any Channel, ending: StreamEnding)] {
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        return try await InFlight.map(Array(members.enumerated()), atOnce: 16) { index, member in
            let own = Array(#""sender":"\#(member.account.name)""#.utf8)
            let ending = StreamEnding()
            let channel = try await StreamSocket.open(
                host: host, port: port, token: member.account.token, ending: ending
            ) { frame in
                let now = clock.microseconds()
                self.arrived(frame, member: index, own: own, encrypted: encrypted, at: now)
            }
            return (channel, ending)
        }
    }

    private func arrived(_ frame: ByteBuffer, member: Int, own: [UInt8], encrypted: Bool, at now: Int64) {
        let id = frame.withUnsafeReadableBytes { bytes in
            DeliveryListeners.offset(of: own, in: bytes) == nil ? GroupDeliveries.created(Self.idField, in: bytes) : nil
        }
        guard let id, id.first == (encrypted ? "E" : "P"), let stamp = Int64(id.dropFirst().prefix { $0.isNumber })
        else { return }
        (encrypted ? encryptedDelivered : plaintextDelivered).record(microseconds: now - stamp)
        state.withLock { state in
            state.counts[id, default: 0] += 1
            guard encrypted else { return }
            state.arrivals.append(Arrival(member: member, clientMessageId: id, microseconds: now - stamp))
            if state.frames[id] == nil { state.frames[id] = Array(frame.readableBytesView) }
        }
    }

    /// How many of the encrypted (or plaintext) group's messages reached all `members` but
    /// their sender.
    func deliveredToAll(encrypted: Bool, members: Int) -> Int {
        let prefix: Character = encrypted ? "E" : "P"
        return state.withLock { $0.counts.filter { $0.key.first == prefix && $0.value >= members - 1 }.count }
    }

    /// Waits (up to 30 s) until `plaintext` and `encrypted` deliveries have arrived.
    func settle(plaintext: Int, encrypted: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while Int(plaintextDelivered.count) < plaintext || Int(encryptedDelivered.count) < encrypted,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Each member of the encrypted group (`members`, in the order `listen` had them) opening
    /// what reached it, as its own device would on arrival: one envelope at a time here (49
    /// devices do not share two cores in life), each open timed and added to the arrival's
    /// latency. The sender device is looked up among the message sender's devices only, as the
    /// kit does, and the opened text must be the message's. At most `limit` arrivals are opened,
    /// spread evenly over all. Returns the opened latencies and how many arrivals did not open.
    func openAll(members: [BenchDevice], limit: Int) -> (opened: LatencyRecorder, failed: Int) {
        let (all, frames) = state.withLock { ($0.arrivals, $0.frames) }
        let step = max(1, (all.count + limit - 1) / max(limit, 1))
        let arrivals = stride(from: 0, to: all.count, by: step).map { all[$0] }
        let messages = frames.compactMapValues { frame -> Message? in
            guard case .messageCreated(let message) = try? JSONDecoder().decode(Event.self, from: Data(frame)).payload
            else { return nil }
            return message
        }
        let openers = members.map { EnvelopeOpener(keys: $0.keys) }
        let opened = LatencyRecorder()
        var failed = 0
        for arrival in arrivals {
            guard let message = messages[arrival.clientMessageId], let envelope = message.envelope,
                let sender = members.first(where: {
                    $0.account.name == message.sender && $0.device.id == envelope.senderDevice
                })
            else {
                failed += 1
                continue
            }
            let started = ContinuousClock.now
            let outcome = openers[arrival.member].open(
                envelope, conversationId: ConversationID.group(message.group ?? "").rawValue,
                clientMessageId: message.clientMessageId, senderIdentityKey: sender.device.identityKey)
            let took = ContinuousClock.now - started
            guard case .opened(let plaintext, _, _) = outcome, plaintext.text.hasPrefix(arrival.clientMessageId) else {
                failed += 1
                continue
            }
            opened.record(microseconds: arrival.microseconds + Int64(took.seconds * 1e6))
        }
        return (opened, failed)
    }
}
