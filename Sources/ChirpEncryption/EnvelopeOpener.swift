import ChirpModels
import Crypto
import Foundation

/// Opens envelopes sealed to one device, in the spec's order: the signature, this device's
/// entry in `keys`, the content key (current encryption key first, then the retired ones), the
/// ciphertext, the commitment, the plaintext JSON. Only a missing entry is told apart; every
/// other failure is "could not be verified", and its text is never shown.
public struct EnvelopeOpener: Sendable {
    /// The opening device's keys (its id and its encryption keys).
    public let keys: DeviceKeys

    /// An opener for the device whose keys are `keys`.
    public init(keys: DeviceKeys) {
        self.keys = keys
    }

    /// Opens `envelope`, sent in `conversationId` as `clientMessageId` by the device whose
    /// identity public key (base64url, the sender's `Device.identityKey`) is `senderIdentityKey`.
    /// The caller looks that device up among the message sender's devices by `senderDevice`.
    public func open(
        _ envelope: Envelope, conversationId: String, clientMessageId: String, senderIdentityKey: String
    ) -> EnvelopeOutcome {
        guard envelope.v == Envelope.currentVersion else { return .unverifiable(.unsupportedVersion) }
        // 1. The signature.
        guard
            EnvelopeSignature.isValid(
                envelope, conversationId: conversationId, clientMessageId: clientMessageId,
                senderIdentityKey: senderIdentityKey)
        else { return .unverifiable(.badSignature) }
        // 2. This device's entry.
        guard let entry = envelope.keys.first(where: { $0.device == keys.deviceId }) else {
            return .notSealedToThisDevice
        }
        // 3. The content key.
        guard let enc = Base64URL.decode(entry.enc, count: EnvelopeSuite.encCount),
            let wrapped = Base64URL.decode(entry.wrappedKey, count: EnvelopeSuite.wrappedKeyCount)
        else { return .unverifiable(.malformed) }
        let info = EnvelopeSuite.info(conversationId: conversationId)
        var unwrapped: Data?
        for privateKey in keys.openingKeys {
            guard
                var recipient = try? HPKE.Recipient(
                    privateKey: privateKey, ciphersuite: EnvelopeSuite.hpke, info: info, encapsulatedKey: enc)
            else { continue }
            if let key = try? recipient.open(wrapped, authenticating: Data()) {
                unwrapped = key
                break
            }
        }
        guard let contentKey = unwrapped, contentKey.count == EnvelopeSuite.contentKeyCount else {
            return .unverifiable(.keyNotUnwrapped)
        }
        // 4, 5. The ciphertext and the commitment.
        let plaintext: Data
        switch EnvelopeContent.open(
            envelope, contentKey: SymmetricKey(data: contentKey), conversationId: conversationId,
            clientMessageId: clientMessageId)
        {
        case .success(let bytes): plaintext = bytes
        case .failure(let reason): return .unverifiable(reason)
        }
        // 6. The plaintext JSON.
        guard let message = try? JSONDecoder().decode(EncryptedPlaintext.self, from: plaintext) else {
            return .unverifiable(.unreadablePlaintext)
        }
        return .opened(message, plaintext: plaintext, contentKey: contentKey)
    }
}

/// What opening an envelope gave.
public enum EnvelopeOutcome: Sendable, Equatable {
    /// The message, the exact bytes that were sealed and the content key that opened them (what
    /// a report discloses: `plaintext` and `contentKey`).
    case opened(EncryptedPlaintext, plaintext: Data, contentKey: Data)
    /// `keys` has no entry for this device: it was added after the message was sealed.
    case notSealedToThisDevice
    /// Shown as "could not be verified", never with its text.
    case unverifiable(UnverifiableReason)
}

/// Which check an envelope failed (for logs and tests; the user sees one notice for all).
public enum UnverifiableReason: Error, Sendable, Equatable {
    /// `v` is not 1.
    case unsupportedVersion
    /// The sender's identity key is malformed or the signature does not verify.
    case badSignature
    /// A field is not base64url of its length.
    case malformed
    /// No encryption key of this device opens the wrapped content key.
    case keyNotUnwrapped
    /// AES-GCM refused the ciphertext.
    case decryptionFailed
    /// The HMAC of the plaintext under the content key is not the commitment.
    case commitmentMismatch
    /// The plaintext is not the JSON of an `EncryptedPlaintext`.
    case unreadablePlaintext
}

/// The sender device's signature over an envelope.
enum EnvelopeSignature {
    static func isValid(
        _ envelope: Envelope, conversationId: String, clientMessageId: String, senderIdentityKey: String
    ) -> Bool {
        guard let keyBytes = Base64URL.decode(senderIdentityKey, count: 32),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes),
            let signature = Base64URL.decode(envelope.signature, count: EnvelopeSuite.signatureCount)
        else { return false }
        let signed = CanonicalEnvelopeJSON.signedBytes(
            envelope, conversationId: conversationId, clientMessageId: clientMessageId)
        return key.isValidSignature(signature, for: signed)
    }
}

/// The ciphertext under a content key, and the commitment to it.
enum EnvelopeContent {
    /// The plaintext when AES-GCM opens the ciphertext with `contentKey`, the nonce and the
    /// associated data, and HMAC-SHA256(contentKey, plaintext) equals the commitment (compared
    /// in constant time).
    static func open(
        _ envelope: Envelope, contentKey: SymmetricKey, conversationId: String, clientMessageId: String
    ) -> Result<Data, UnverifiableReason> {
        guard let nonceBytes = Base64URL.decode(envelope.nonce, count: EnvelopeSuite.nonceCount),
            let nonce = try? AES.GCM.Nonce(data: nonceBytes),
            let sealed = Base64URL.decode(envelope.ciphertext), sealed.count >= EnvelopeSuite.tagCount,
            let commitment = Base64URL.decode(envelope.commitment, count: EnvelopeSuite.commitmentCount)
        else { return .failure(.malformed) }
        guard
            let box = try? AES.GCM.SealedBox(
                nonce: nonce, ciphertext: sealed.dropLast(EnvelopeSuite.tagCount),
                tag: sealed.suffix(EnvelopeSuite.tagCount)),
            let plaintext = try? AES.GCM.open(
                box, using: contentKey,
                authenticating: EnvelopeSuite.associatedData(
                    conversationId: conversationId, clientMessageId: clientMessageId))
        else { return .failure(.decryptionFailed) }
        guard HMAC<SHA256>.isValidAuthenticationCode(commitment, authenticating: plaintext, using: contentKey) else {
            return .failure(.commitmentMismatch)
        }
        return .success(plaintext)
    }
}
