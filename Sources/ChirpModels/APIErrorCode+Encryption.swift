/// The error codes of encrypted conversations (API.md part 4).
extension APIErrorCode {
    /// A member of the conversation has no device yet, so nothing could be sealed to them
    /// (409, `field` names the member).
    public static let noDevices = "no_devices"
    /// An envelope does not name exactly the members' current devices (409, with `devices`).
    public static let devicesChanged = "devices_changed"
    /// A plaintext send, or edit, in an encrypted conversation (422).
    public static let encryptionRequired = "encryption_required"
    /// An envelope in a conversation that is not encrypted (422).
    public static let encryptionNotEnabled = "encryption_not_enabled"
    /// A report's content key and plaintext do not open the stored envelope (422).
    public static let unverifiableReport = "unverifiable_report"
}
