import ChirpModels

/// What this device made of an encrypted message's envelope (`LocalMessage.verification`; nil
/// for a message in the clear). Only `opened` shows text: the others show a notice, never text.
public enum MessageVerification: String, Sendable, Hashable, Codable {
    /// The signature, the content key, the ciphertext and the commitment all checked: the text
    /// is the sender device's.
    case opened
    /// A check failed (or the sender's device is unknown): shown as "could not be verified".
    case couldNotVerify
    /// The envelope has no key for this device: it was sealed before this device existed.
    case notSealedToThisDevice

    /// The notice shown in place of the text when the message did not open.
    public var notice: String? {
        switch self {
        case .opened: nil
        case .couldNotVerify: "could not be verified"
        case .notSealedToThisDevice: "sent before this device was added: it cannot read it"
        }
    }
}

/// A message's envelope as this device opened it: the verification and, when it opened, the
/// plaintext. Handed to `LocalLedger`, which stores the decrypted local copy.
struct OpenedEnvelope: Sendable, Equatable {
    var verification: MessageVerification
    var plaintext: EncryptedPlaintext?

    static let couldNotVerify = OpenedEnvelope(verification: .couldNotVerify, plaintext: nil)
    static let notSealedToThisDevice = OpenedEnvelope(verification: .notSealedToThisDevice, plaintext: nil)

    static func opened(_ plaintext: EncryptedPlaintext) -> OpenedEnvelope {
        OpenedEnvelope(verification: .opened, plaintext: plaintext)
    }
}
