import Crypto
import Foundation

/// Encrypts a push payload to a subscription (RFC 8291, content coding `aes128gcm` of RFC 8188):
/// a fresh ECDH key and salt per message, one record of at most 4096 bytes ending in the 0x02
/// delimiter, behind the header that carries the salt and the sender's public key.
public struct PushPayloadEncryptor: Sendable {
    /// The record size the header announces; the whole payload travels in one record.
    public static let recordSize: UInt32 = 4096
    /// The longest plaintext one record holds: the delimiter and the AES-GCM tag take 17 bytes.
    public static let maximumPlaintextLength = Int(recordSize) - 17

    /// The encryptor.
    public init() {}

    /// The `aes128gcm` body carrying `plaintext` to the subscription with `keys`.
    public func encrypt(_ plaintext: Data, for keys: PushSubscriptionKeys) throws -> Data {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        return try encrypt(plaintext, for: keys, salt: salt, senderKey: P256.KeyAgreement.PrivateKey())
    }

    /// The body with a given salt and ephemeral key, as RFC 8291's example fixes them. Never
    /// reuse either for real messages.
    package func encrypt(
        _ plaintext: Data, for keys: PushSubscriptionKeys, salt: Data, senderKey: P256.KeyAgreement.PrivateKey
    ) throws -> Data {
        guard plaintext.count <= Self.maximumPlaintextLength else {
            throw PushEncryptionError.payloadTooLarge(plaintext.count)
        }
        let contentKeys = try PushContentKeys(
            sharedSecret: try senderKey.sharedSecretFromKeyAgreement(with: keys.p256dh), authSecret: keys.auth,
            receiverPublicKey: keys.p256dh, senderPublicKey: senderKey.publicKey, salt: salt)
        // The last (and only) record: the plaintext, then the 0x02 delimiter, no further padding.
        let sealed = try AES.GCM.seal(plaintext + [2], using: contentKeys.key, nonce: contentKeys.nonce)
        let header = AES128GCMHeader(
            salt: salt, recordSize: Self.recordSize, keyID: senderKey.publicKey.x963Representation)
        return header.encoded + sealed.ciphertext + sealed.tag
    }
}
