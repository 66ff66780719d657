import ChirpEncryption
import ChirpModels
import Foundation

/// Seals one member's messages to one encrypted conversation as the kit's outbox does at send
/// time (`MessageCrypto.seal`): `EnvelopeSealer` with the sender's device, bound to the
/// conversation's id and the message's `clientMessageId`, to every current device of every
/// member (the sender's own among them: the sealer leaves that one out, not the sender's other
/// devices). The body of the send is `SendMessageRequest(envelope:)` as JSON.
struct BenchSealer: Sendable {
    let sealer: EnvelopeSealer
    /// The id the envelope binds to: `d:LO:HI` or `g:ID`.
    let conversationId: ConversationID
    /// Every member's devices, the sender's included.
    let recipients: [Device]

    init(sender: BenchDevice, members: [BenchDevice], conversationId: ConversationID) {
        sealer = EnvelopeSealer(keys: sender.keys)
        self.conversationId = conversationId
        recipients = members.map(\.device)
    }

    /// The sender and peer of a direct conversation: sealed to `d:` and their two ids.
    init(sender: BenchDevice, peer: BenchDevice) {
        self.init(
            sender: sender, members: [sender, peer], conversationId: .direct(sender.account.id, peer.account.id))
    }

    /// The message `text` sealed as `clientMessageId`.
    func seal(text: String, clientMessageId: String) throws -> SealedEnvelope {
        try sealer.seal(
            EncryptedPlaintext(text: text), conversationId: conversationId.rawValue, clientMessageId: clientMessageId,
            recipients: recipients)
    }

    /// The body of the send of `text` as `clientMessageId`, sealed now.
    func body(text: String, clientMessageId: String) throws -> Data {
        try JSONEncoder().encode(
            SendMessageRequest(envelope: try seal(text: text, clientMessageId: clientMessageId).envelope))
    }
}
