import Crypto
import Foundation

/// Decrypts an `aes128gcm` push body as the user agent does (RFC 8291): with the subscription's
/// private key and auth secret. For the test push service and tests; the server only encrypts.
public struct PushPayloadDecryptor: Sendable {
    /// The subscription's ECDH private key.
    public let privateKey: P256.KeyAgreement.PrivateKey
    /// The subscription's 16-byte authentication secret.
    public let authSecret: Data

    /// A decryptor for the subscription with these keys.
    public init(privateKey: P256.KeyAgreement.PrivateKey, authSecret: Data) {
        self.privateKey = privateKey
        self.authSecret = authSecret
    }

    /// The plaintext of a single-record body.
    public func decrypt(_ body: Data) throws(PushEncryptionError) -> Data {
        let header = try AES128GCMHeader(parsing: body)
        let record = body.dropFirst(header.encodedLength)
        guard record.count > 17, record.count <= Int(header.recordSize) else { throw .malformedRecord }
        let padded: Data
        do {
            let senderPublicKey = try P256.KeyAgreement.PublicKey(x963Representation: header.keyID)
            let contentKeys = try PushContentKeys(
                sharedSecret: try privateKey.sharedSecretFromKeyAgreement(with: senderPublicKey),
                authSecret: authSecret, receiverPublicKey: privateKey.publicKey, senderPublicKey: senderPublicKey,
                salt: header.salt)
            let box = try AES.GCM.SealedBox(
                nonce: contentKeys.nonce, ciphertext: record.dropLast(16), tag: record.suffix(16))
            padded = try AES.GCM.open(box, using: contentKeys.key)
        } catch {
            throw .malformedRecord
        }
        // Padding: zeros after the delimiter, which is 0x02 in the last record (RFC 8188 §2).
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 2 else {
            throw .malformedRecord
        }
        return Data(padded[padded.startIndex..<delimiter])
    }
}
