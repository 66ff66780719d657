import ChirpModels
import Crypto
import Foundation

/// Encrypts an attachment before its upload and decrypts it after its download: AES-256-GCM
/// under a fresh 32-byte key and 12-byte nonce, no associated data; the uploaded bytes are the
/// ciphertext followed by the tag (uploaded as `application/octet-stream`). The key, the nonce
/// and the SHA-256 of the uploaded bytes travel in the envelope (`EncryptedMediaKey`).
public enum AttachmentCipher {
    /// Encrypts the file's bytes `file` under a fresh key and nonce.
    public static func encrypt(_ file: Data) throws -> EncryptedAttachment {
        let key = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let box = try AES.GCM.seal(file, using: key, nonce: nonce)
        // A new Data from index 0: `box.ciphertext` may be a slice, and `+` keeps its indices.
        var uploaded = Data(capacity: box.ciphertext.count + box.tag.count)
        uploaded.append(box.ciphertext)
        uploaded.append(box.tag)
        return EncryptedAttachment(
            uploaded: uploaded, key: key.withUnsafeBytes { Data($0) }, nonce: Data(nonce),
            sha256: Data(SHA256.hash(data: uploaded)), byteCount: file.count)
    }

    /// The file's bytes from the downloaded `uploaded` bytes and the message's entry `media`.
    /// Throws `AttachmentError` when the SHA-256 or the length differs or AES-GCM refuses them:
    /// the attachment "could not be verified".
    public static func decrypt(_ uploaded: Data, with media: EncryptedMediaKey) throws(AttachmentError) -> Data {
        guard let key = Base64URL.decode(media.key, count: 32),
            let nonceBytes = Base64URL.decode(media.nonce, count: 12),
            let nonce = try? AES.GCM.Nonce(data: nonceBytes),
            let sha256 = Base64URL.decode(media.sha256, count: SHA256.byteCount)
        else { throw .malformedKey }
        guard Data(SHA256.hash(data: uploaded)) == sha256 else { throw .sha256Mismatch }
        guard uploaded.count >= 16,
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: uploaded.dropLast(16), tag: uploaded.suffix(16)),
            let file = try? AES.GCM.open(box, using: SymmetricKey(data: key))
        else { throw .decryptionFailed }
        guard file.count == media.byteCount else { throw .byteCountMismatch }
        return file
    }
}

/// An encrypted attachment: the bytes to upload and what opens them.
public struct EncryptedAttachment: Sendable, Equatable {
    /// The ciphertext followed by the 16-byte tag.
    public let uploaded: Data
    /// The 32-byte key.
    public let key: Data
    /// The 12-byte nonce.
    public let nonce: Data
    /// The SHA-256 of `uploaded`.
    public let sha256: Data
    /// The length of the file itself.
    public let byteCount: Int

    public init(uploaded: Data, key: Data, nonce: Data, sha256: Data, byteCount: Int) {
        self.uploaded = uploaded
        self.key = key
        self.nonce = nonce
        self.sha256 = sha256
        self.byteCount = byteCount
    }

    /// The plaintext's media entry once the upload has the server id `id`.
    public func mediaKey(id: String, contentType: String, name: String? = nil) -> EncryptedMediaKey {
        EncryptedMediaKey(
            id: id, key: Base64URL.encode(key), nonce: Base64URL.encode(nonce), sha256: Base64URL.encode(sha256),
            contentType: contentType, name: name, byteCount: byteCount)
    }
}

/// Why an attachment did not open.
public enum AttachmentError: Error, Equatable, Sendable {
    /// The entry's key, nonce or SHA-256 is not base64url of its length.
    case malformedKey
    /// The downloaded bytes are not the ones the sender uploaded.
    case sha256Mismatch
    /// AES-GCM refused the bytes.
    case decryptionFailed
    /// The file is not `byteCount` long.
    case byteCountMismatch
}
