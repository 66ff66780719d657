import ChirpModels

/// The rules of encrypted conversations (API.md part 4) as the services apply them: which
/// sends a conversation takes, and the errors that say why not.
enum EncryptionRules {
    /// A member with no device: nothing could be sealed to them.
    static func noDevices(_ username: String) -> APIError {
        APIError(
            .conflict, APIErrorCode.noDevices,
            "\(username.prefix(32)) has no device yet, so nothing could be sealed to them: they must sign in on a client that registers one first.",
            field: username)
    }

    static let encryptionRequired = APIError(
        .unprocessableContent, APIErrorCode.encryptionRequired,
        "This conversation is encrypted: send an envelope sealed to its members' devices instead of text.",
        field: "envelope")

    static let encryptionNotEnabled = APIError(
        .unprocessableContent, APIErrorCode.encryptionNotEnabled,
        "This conversation is not encrypted: send text, or turn encryption on first (PUT …/encryption).",
        field: "envelope")

    /// Text or a reply link beside an envelope: they travel inside it (a rule, not the schema's,
    /// so 422 as the other rules of a send).
    static let textBesideEnvelope = APIError(
        .unprocessableContent, APIErrorCode.invalidParameter,
        "An encrypted message carries its text and reply inside the envelope: send the envelope alone.",
        field: "text")

    /// Whether a send with (`sealed`) or without an envelope fits a conversation that is
    /// (`encrypted`) or is not encrypted; throws the error that says which it needs.
    static func checkForm(sealed: Bool, encrypted: Bool) throws {
        if encrypted && !sealed { throw encryptionRequired }
        if sealed && !encrypted { throw encryptionNotEnabled }
    }
}
