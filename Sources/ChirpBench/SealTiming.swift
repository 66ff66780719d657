import ChirpCommandSupport
import ChirpEncryption
import ChirpModels
import Foundation

/// What sealing and opening cost the client alone, apart from any server: `count` messages
/// sealed one after another (`BenchSealer`, as the bench's sends seal them) to `recipients`
/// devices, then each opened by one of them (`EnvelopeOpener`), all on one thread, timed by
/// that thread's CPU time and by the wall clock.
struct SealTiming: Encodable {
    /// Devices each message was sealed to (the sender's own left out).
    var recipients: Int
    var count: Int
    var cpuPerSealMilliseconds: Double
    var wallPerSealMilliseconds: Double
    /// One recipient's CPU time to check, unwrap, decrypt and read one envelope.
    var cpuPerOpenMilliseconds: Double

    var line: String {
        String(
            format: "to %d device%@: %.3f ms CPU per seal (%.3f ms wall), %.3f ms CPU per open (%d each)", recipients,
            recipients == 1 ? "" : "s", cpuPerSealMilliseconds, wallPerSealMilliseconds, cpuPerOpenMilliseconds, count)
    }

    /// Seals `count` messages to `recipients` new devices and opens each as the first of them.
    static func measure(recipients: Int, count: Int) throws -> SealTiming {
        let sender = try BenchDevice.local()
        let others = try (0..<max(recipients, 1)).map { _ in try BenchDevice.local() }
        let sealer = BenchSealer(sender: sender, members: [sender] + others, conversationId: .group("1"))
        let text = "t\(RequestTemplate.stamp(0)) load test message"
        var sealed: [(id: String, envelope: Envelope)] = []
        sealed.reserveCapacity(count)
        let cpuBefore = ProcessFigures.threadCPUSeconds()
        let started = ContinuousClock.now
        for index in 0..<count {
            let id = "seal\(index)"
            sealed.append((id, try sealer.seal(text: text, clientMessageId: id).envelope))
        }
        let wall = (ContinuousClock.now - started).seconds
        let sealCPU = ProcessFigures.threadCPUSeconds() - cpuBefore

        let opener = EnvelopeOpener(keys: others[0].keys)
        let openBefore = ProcessFigures.threadCPUSeconds()
        let opened = sealed.filter { id, envelope in
            if case .opened = opener.open(
                envelope, conversationId: sealer.conversationId.rawValue, clientMessageId: id,
                senderIdentityKey: sender.keys.identityPublicKey)
            {
                return true
            }
            return false
        }
        let openCPU = ProcessFigures.threadCPUSeconds() - openBefore
        guard opened.count == count else {
            throw CommandFailure("\(count - opened.count) of \(count) sealed messages did not open")
        }
        let each = 1000 / Double(max(count, 1))
        return SealTiming(
            recipients: others.count, count: count, cpuPerSealMilliseconds: sealCPU * each,
            wallPerSealMilliseconds: wall * each, cpuPerOpenMilliseconds: openCPU * each)
    }
}
