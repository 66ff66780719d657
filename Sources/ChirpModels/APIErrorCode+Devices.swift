/// The error codes of devices (API.md part 4, "Devices").
extension APIErrorCode {
    /// The device id is registered with another identity key (or by another account) (409).
    public static let identityKeyChanged = "identity_key_changed"
    /// The account has the most devices it may have (409).
    public static let tooManyDevices = "too_many_devices"
    /// `keySignature` is not the identity key's signature over the encryption key, or a key is
    /// not 32 bytes of base64url (422).
    public static let invalidKeySignature = "invalid_key_signature"
}
