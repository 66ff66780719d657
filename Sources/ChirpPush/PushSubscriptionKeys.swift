import Crypto
import Foundation

/// A browser subscription's keys (`PushSubscription.keys`): its P-256 public key (`p256dh`) and
/// its 16-byte authentication secret (`auth`), which every payload is encrypted to (RFC 8291).
public struct PushSubscriptionKeys: Sendable {
    /// The user agent's ECDH public key.
    public let p256dh: P256.KeyAgreement.PublicKey
    /// The authentication secret.
    public let auth: Data

    /// The keys as they are.
    public init(p256dh: P256.KeyAgreement.PublicKey, auth: Data) throws(PushEncryptionError) {
        guard auth.count == 16 else { throw .invalidAuthSecret }
        self.p256dh = p256dh
        self.auth = auth
    }

    /// The keys as a subscription's JSON gives them: base64url, `p256dh` an uncompressed point
    /// (65 bytes) and `auth` 16 bytes. Throws when either is not, so a subscription can be
    /// refused when it is made rather than failing at every push.
    public init(p256dh: String, auth: String) throws(PushEncryptionError) {
        guard let point = Data(base64URLEncoded: p256dh), point.count == 65,
            let publicKey = try? P256.KeyAgreement.PublicKey(x963Representation: point)
        else { throw .invalidP256dh }
        guard let secret = Data(base64URLEncoded: auth) else { throw .invalidAuthSecret }
        try self.init(p256dh: publicKey, auth: secret)
    }
}

/// Why a push payload could not be encrypted or decrypted.
public enum PushEncryptionError: Error, Equatable {
    /// `p256dh` is not a base64url uncompressed P-256 point.
    case invalidP256dh
    /// `auth` is not 16 bytes of base64url.
    case invalidAuthSecret
    /// The payload does not fit the single 4096-byte record.
    case payloadTooLarge(Int)
    /// The body's aes128gcm header (RFC 8188 §2.1) is not salt, record size and a P-256 key id.
    case malformedHeader
    /// The record does not open, or does not end in the last record's padding delimiter.
    case malformedRecord
}
