import Crypto
import Foundation

/// The content-encryption key and nonce of a Web Push message (RFC 8291 §3.4, RFC 8188 §2.2
/// and §2.3), derived with HKDF-SHA256 from the ECDH secret, the subscription's auth secret,
/// both public keys and the salt. Sender and receiver derive the same pair.
struct PushContentKeys {
    let key: SymmetricKey
    let nonce: AES.GCM.Nonce

    init(
        sharedSecret: SharedSecret, authSecret: Data, receiverPublicKey: P256.KeyAgreement.PublicKey,
        senderPublicKey: P256.KeyAgreement.PublicKey, salt: Data
    ) throws {
        // key_info = "WebPush: info" || 0x00 || ua_public || as_public
        let keyInfo =
            Data("WebPush: info".utf8) + [0] + receiverPublicKey.x963Representation
            + senderPublicKey.x963Representation
        let inputKeyMaterial = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        self.key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12)
        self.nonce = try nonce.withUnsafeBytes { try AES.GCM.Nonce(data: Data($0)) }
    }
}
