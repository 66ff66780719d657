import ChirpModels
import Crypto
import Foundation

/// Checks a device's keys before anyone relies on them: the identity key and the encryption key
/// are 32 bytes of base64url, and `keySignature` is the identity key's Ed25519 signature (64
/// bytes) over the encryption key's 32 raw bytes. The server answers a failure with 422
/// `invalid_key_signature`; a sealer refuses to seal to such a device.
public enum KeySignatureCheck {
    /// Throws `KeySignatureError` unless the keys and their signature are well formed and valid.
    public static func verify(identityKey: String, encryptionKey: String, keySignature: String)
        throws(KeySignatureError)
    {
        guard let identityBytes = Base64URL.decode(identityKey, count: 32),
            let identity = try? Curve25519.Signing.PublicKey(rawRepresentation: identityBytes)
        else { throw .malformedIdentityKey }
        guard let encryptionBytes = Base64URL.decode(encryptionKey, count: 32),
            (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: encryptionBytes)) != nil
        else { throw .malformedEncryptionKey }
        guard let signature = Base64URL.decode(keySignature, count: 64) else { throw .malformedSignature }
        guard identity.isValidSignature(signature, for: encryptionBytes) else { throw .badSignature }
    }

    /// Checks a registration or rotation body.
    public static func verify(_ request: DeviceRequest) throws(KeySignatureError) {
        try verify(
            identityKey: request.identityKey, encryptionKey: request.encryptionKey, keySignature: request.keySignature)
    }

    /// Checks a listed device.
    public static func verify(_ device: Device) throws(KeySignatureError) {
        try verify(
            identityKey: device.identityKey, encryptionKey: device.encryptionKey, keySignature: device.keySignature)
    }

    /// Whether the device's keys pass `verify`.
    public static func isValid(_ device: Device) -> Bool {
        (try? verify(device)) != nil
    }
}

/// What is wrong with a device's keys.
public enum KeySignatureError: Error, Equatable, Sendable {
    /// `identityKey` is not 32 bytes of base64url.
    case malformedIdentityKey
    /// `encryptionKey` is not 32 bytes of base64url.
    case malformedEncryptionKey
    /// `keySignature` is not 64 bytes of base64url.
    case malformedSignature
    /// The signature does not verify with the identity key.
    case badSignature
}
