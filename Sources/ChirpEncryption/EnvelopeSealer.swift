import ChirpModels
import Crypto
import Foundation

/// Seals a message of an encrypted conversation into an `Envelope` (envelope v1): a fresh
/// content key and nonce, AES-256-GCM over the plaintext bound to the conversation and the
/// `clientMessageId`, the key's HMAC-SHA256 commitment, the key sealed with HPKE to each
/// recipient device, and the sender device's Ed25519 signature over the rest.
public struct EnvelopeSealer: Sendable {
    /// The sending device's id (`senderDevice`).
    public let senderDeviceId: String
    /// The sending device's identity key, which signs.
    public let identityKey: Curve25519.Signing.PrivateKey

    /// A sealer for the device `senderDeviceId` signing with `identityKey`.
    public init(senderDeviceId: String, identityKey: Curve25519.Signing.PrivateKey) {
        self.senderDeviceId = senderDeviceId
        self.identityKey = identityKey
    }

    /// A sealer for the device whose keys are `keys`.
    public init(keys: DeviceKeys) {
        self.init(senderDeviceId: keys.deviceId, identityKey: keys.identityKey)
    }

    /// Seals `plaintext` as its JSON (what is sealed is this serialization).
    ///
    /// - Parameter recipients: every current device of every member; the sender's own device
    ///   is left out of `keys`, its other devices are not. Each device's key signature must
    ///   verify (`KeySignatureCheck`), or nothing is sealed.
    public func seal(
        _ plaintext: EncryptedPlaintext, conversationId: String, clientMessageId: String, recipients: [Device]
    ) throws -> SealedEnvelope {
        try seal(
            bytes: Self.encode(plaintext), conversationId: conversationId, clientMessageId: clientMessageId,
            recipients: recipients)
    }

    /// Seals the plaintext bytes `plaintext` (UTF-8 JSON of an `EncryptedPlaintext`) as they are.
    public func seal(
        bytes plaintext: Data, conversationId: String, clientMessageId: String, recipients: [Device]
    ) throws -> SealedEnvelope {
        let contentKey = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let box = try AES.GCM.seal(
            plaintext, using: contentKey, nonce: nonce,
            authenticating: EnvelopeSuite.associatedData(
                conversationId: conversationId, clientMessageId: clientMessageId)
        )
        let commitment = HMAC<SHA256>.authenticationCode(for: plaintext, using: contentKey)
        let contentKeyBytes = contentKey.withUnsafeBytes { Data($0) }
        let info = EnvelopeSuite.info(conversationId: conversationId)

        var keys: [EnvelopeKey] = []
        var sealedTo: Set<String> = []
        for device in recipients where device.id != senderDeviceId && !sealedTo.contains(device.id) {
            do {
                try KeySignatureCheck.verify(device)
            } catch {
                throw EnvelopeSealingError.invalidDeviceKeys(device: device.id, error)
            }
            let publicKey = try Curve25519.KeyAgreement.PublicKey(
                rawRepresentation: Base64URL.decode(device.encryptionKey, count: 32)!)
            var sender = try HPKE.Sender(recipientKey: publicKey, ciphersuite: EnvelopeSuite.hpke, info: info)
            let wrapped = try sender.seal(contentKeyBytes, authenticating: Data())
            keys.append(
                EnvelopeKey(
                    device: device.id, enc: Base64URL.encode(sender.encapsulatedKey),
                    wrappedKey: Base64URL.encode(wrapped)))
            sealedTo.insert(device.id)
        }

        var envelope = Envelope(
            senderDevice: senderDeviceId, nonce: Base64URL.encode(Data(nonce)),
            ciphertext: Base64URL.encode(box.ciphertext + box.tag), commitment: Base64URL.encode(Data(commitment)),
            keys: keys, signature: "")
        let signed = CanonicalEnvelopeJSON.signedBytes(
            envelope, conversationId: conversationId, clientMessageId: clientMessageId)
        envelope.signature = Base64URL.encode(try identityKey.signature(for: signed))
        return SealedEnvelope(envelope: envelope, contentKey: contentKeyBytes, plaintext: plaintext)
    }

    /// The JSON an `EncryptedPlaintext` is sealed as: keys sorted, `/` unescaped, no whitespace,
    /// `replyTo` and a media entry's `name` left out when nil.
    public static func encode(_ plaintext: EncryptedPlaintext) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(plaintext)
    }
}

/// A sealed message: the envelope to send, and what only the sender knows — the content key
/// (which a report discloses) and the exact plaintext bytes that were sealed.
public struct SealedEnvelope: Sendable {
    public let envelope: Envelope
    /// The 32-byte content key.
    public let contentKey: Data
    /// The plaintext bytes as sealed (a report's `plaintext` is their UTF-8 text).
    public let plaintext: Data

    public init(envelope: Envelope, contentKey: Data, plaintext: Data) {
        self.envelope = envelope
        self.contentKey = contentKey
        self.plaintext = plaintext
    }
}

/// Why an envelope was not sealed.
public enum EnvelopeSealingError: Error, Equatable {
    /// A recipient device's keys are malformed or its key signature does not verify.
    case invalidDeviceKeys(device: String, KeySignatureError)
}
