/// A message of an encrypted conversation as it travels and as the server stores it (API.md
/// part 4, "Sending and reading"): the ciphertext of the plaintext JSON (`EncryptedPlaintext`),
/// its content key sealed to each recipient device, the key's commitment and the sender
/// device's signature. Every byte string is base64url without padding, as on the wire; the
/// server never reads inside it.
public struct Envelope: Sendable, Hashable, Codable {
    /// The only version there is.
    public static let currentVersion = 1

    /// The envelope's version: 1.
    public var v: Int
    /// The id of the device that sealed it.
    public var senderDevice: String
    /// The AES-256-GCM nonce (12 bytes).
    public var nonce: String
    /// The AES-256-GCM ciphertext of the plaintext JSON followed by its 16-byte tag.
    public var ciphertext: String
    /// HMAC-SHA256 keyed with the content key over the plaintext JSON (32 bytes).
    public var commitment: String
    /// The content key sealed to each recipient device, in the sealer's order.
    public var keys: [EnvelopeKey]
    /// The sender device's Ed25519 signature (64 bytes).
    public var signature: String

    public init(
        v: Int = Envelope.currentVersion, senderDevice: String, nonce: String, ciphertext: String,
        commitment: String, keys: [EnvelopeKey], signature: String
    ) {
        self.v = v
        self.senderDevice = senderDevice
        self.nonce = nonce
        self.ciphertext = ciphertext
        self.commitment = commitment
        self.keys = keys
        self.signature = signature
    }
}

/// An envelope's content key sealed to one device with HPKE (RFC 9180, base mode).
public struct EnvelopeKey: Sendable, Hashable, Codable {
    /// The recipient device's id.
    public var device: String
    /// The HPKE encapsulated key (32 bytes).
    public var enc: String
    /// The sealed 32-byte content key with its 16-byte tag (48 bytes).
    public var wrappedKey: String

    public init(device: String, enc: String, wrappedKey: String) {
        self.device = device
        self.enc = enc
        self.wrappedKey = wrappedKey
    }
}
