/// Body of `PUT /v1/me/devices/{deviceId}`: registers a device, or rotates its encryption key
/// (the same `identityKey` with a new `encryptionKey` and its `keySignature`). All keys are
/// base64url without padding, as in `Device`.
public struct DeviceRequest: Sendable, Hashable, Codable {
    public var name: String
    public var identityKey: String
    public var encryptionKey: String
    public var keySignature: String

    public init(name: String, identityKey: String, encryptionKey: String, keySignature: String) {
        self.name = name
        self.identityKey = identityKey
        self.encryptionKey = encryptionKey
        self.keySignature = keySignature
    }
}
