/// One device of a user that takes part in encrypted conversations (API.md part 4,
/// "Devices"), as `GET /v1/users/{username}/devices` lists it. The keys are base64url without
/// padding: `identityKey` an Ed25519 public key, `encryptionKey` an X25519 public key, and
/// `keySignature` the identity key's signature over the 32 bytes of `encryptionKey`.
public struct Device: Sendable, Hashable, Codable {
    /// The id the client chose (`[A-Za-z0-9_-]{1,64}`; the kit uses 16 random bytes, base64url).
    public var id: String
    public var name: String
    public var identityKey: String
    public var encryptionKey: String
    public var keySignature: String
    public var createdAt: Timestamp

    public init(
        id: String, name: String, identityKey: String, encryptionKey: String, keySignature: String,
        createdAt: Timestamp
    ) {
        self.id = id
        self.name = name
        self.identityKey = identityKey
        self.encryptionKey = encryptionKey
        self.keySignature = keySignature
        self.createdAt = createdAt
    }
}
