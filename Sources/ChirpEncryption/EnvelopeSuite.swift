import Crypto
import Foundation

/// The algorithms and labels of envelope v1 that the sealer, the opener and the report check
/// share.
enum EnvelopeSuite {
    /// HPKE: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM (0x0020, 0x0001, 0x0002).
    static let hpke = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_256)

    static let contentKeyCount = 32
    static let nonceCount = 12
    static let tagCount = 16
    static let encCount = 32
    static let wrappedKeyCount = contentKeyCount + tagCount
    static let commitmentCount = 32
    static let signatureCount = 64

    /// HPKE `info`: `chirp-v1` followed by the conversation id, no separator.
    static func info(conversationId: String) -> Data { Data(("chirp-v1" + conversationId).utf8) }

    /// The AES-GCM associated data: the conversation id, a newline, the `clientMessageId`.
    static func associatedData(conversationId: String, clientMessageId: String) -> Data {
        Data((conversationId + "\n" + clientMessageId).utf8)
    }
}
