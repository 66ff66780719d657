import ChirpModels
import Crypto
import Foundation

/// One device's private keys (the spec's "Device keys"): its id, its Ed25519 identity key,
/// which never changes, its current X25519 encryption key, and the encryption keys it replaced,
/// kept until everything sealed to them has been opened. `DeviceKeyFile` keeps them on disk;
/// they never leave the device.
public struct DeviceKeys: Sendable {
    /// An encryption key that a rotation replaced, with the time it was replaced.
    public struct RetiredKey: Sendable {
        public let key: Curve25519.KeyAgreement.PrivateKey
        public let replacedAt: Timestamp

        public init(key: Curve25519.KeyAgreement.PrivateKey, replacedAt: Timestamp) {
            self.key = key
            self.replacedAt = replacedAt
        }
    }

    /// The device's id: 16 random bytes, base64url (22 characters).
    public let deviceId: String
    /// Signs the encryption keys and every envelope the device seals.
    public let identityKey: Curve25519.Signing.PrivateKey
    /// Opens what is sealed to the device now.
    public private(set) var encryptionKey: Curve25519.KeyAgreement.PrivateKey
    /// Replaced encryption keys, oldest first.
    public private(set) var retiredKeys: [RetiredKey]

    /// Keys as they are (from a file, or fixed in a test).
    public init(
        deviceId: String, identityKey: Curve25519.Signing.PrivateKey,
        encryptionKey: Curve25519.KeyAgreement.PrivateKey, retiredKeys: [RetiredKey] = []
    ) {
        self.deviceId = deviceId
        self.identityKey = identityKey
        self.encryptionKey = encryptionKey
        self.retiredKeys = retiredKeys
    }

    /// A new device: a random id, identity key and encryption key.
    public static func generate() -> DeviceKeys {
        let id = SymmetricKey(size: .bits128).withUnsafeBytes { Base64URL.encode($0) }
        return DeviceKeys(
            deviceId: id, identityKey: Curve25519.Signing.PrivateKey(),
            encryptionKey: Curve25519.KeyAgreement.PrivateKey())
    }

    /// The identity public key, base64url (a `Device`'s `identityKey`).
    public var identityPublicKey: String { Base64URL.encode(identityKey.publicKey.rawRepresentation) }

    /// The current encryption public key, base64url (a `Device`'s `encryptionKey`).
    public var encryptionPublicKey: String { Base64URL.encode(encryptionKey.publicKey.rawRepresentation) }

    /// The body of `PUT /v1/me/devices/{deviceId}` for the current keys: `keySignature` is the
    /// identity key's Ed25519 signature over the 32 raw bytes of the encryption public key.
    public func request(name: String) throws -> DeviceRequest {
        let signature = try identityKey.signature(for: encryptionKey.publicKey.rawRepresentation)
        return DeviceRequest(
            name: name, identityKey: identityPublicKey, encryptionKey: encryptionPublicKey,
            keySignature: Base64URL.encode(signature))
    }

    /// Replaces the encryption key with a new one and keeps the old one as retired at `now`.
    public mutating func rotate(now: Timestamp = .now()) {
        retiredKeys.append(RetiredKey(key: encryptionKey, replacedAt: now))
        encryptionKey = Curve25519.KeyAgreement.PrivateKey()
    }

    /// Forgets the retired keys replaced before `time`: what was sealed to them no longer opens.
    public mutating func dropRetired(before time: Timestamp) {
        retiredKeys.removeAll { $0.replacedAt < time }
    }

    /// Every encryption key that may open an envelope: the current one first, then the retired
    /// ones, newest first.
    public var openingKeys: [Curve25519.KeyAgreement.PrivateKey] {
        [encryptionKey] + retiredKeys.reversed().map(\.key)
    }
}
