import Foundation

/// The header of an `aes128gcm` body (RFC 8188 §2.1) as Web Push uses it (RFC 8291 §4):
/// salt (16) | record size (4, big endian) | key id length (1) | key id (the sender's public
/// key, 65 bytes).
struct AES128GCMHeader: Equatable {
    static let saltLength = 16
    static let keyIDLength = 65

    var salt: Data
    var recordSize: UInt32
    var keyID: Data

    /// The header's length on the wire.
    var encodedLength: Int { Self.saltLength + 4 + 1 + keyID.count }

    var encoded: Data {
        var bytes = salt
        withUnsafeBytes(of: recordSize.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(keyID.count))
        bytes.append(keyID)
        return bytes
    }

    init(salt: Data, recordSize: UInt32, keyID: Data) {
        self.salt = salt
        self.recordSize = recordSize
        self.keyID = keyID
    }

    /// The header at the start of `body`.
    init(parsing body: Data) throws(PushEncryptionError) {
        let bytes = [UInt8](body.prefix(Self.saltLength + 5 + Self.keyIDLength))
        guard bytes.count > Self.saltLength + 5 else { throw .malformedHeader }
        let size = bytes[Self.saltLength..<Self.saltLength + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let keyIDLength = Int(bytes[Self.saltLength + 4])
        guard keyIDLength == Self.keyIDLength, bytes.count == Self.saltLength + 5 + keyIDLength, size > 17 else {
            throw .malformedHeader
        }
        self.init(
            salt: Data(bytes[0..<Self.saltLength]), recordSize: size, keyID: Data(bytes[(Self.saltLength + 5)...]))
    }
}
