import ChirpModels
import Crypto
import Foundation

/// The server's check of a report about an encrypted message (`POST /v1/reports` with
/// `{"contentKey", "plaintext"}`): the disclosed key opens the stored ciphertext to exactly the
/// disclosed plaintext, the plaintext matches the commitment, and the stored envelope's
/// signature verifies with the sender device's stored identity key. A report that passes
/// cannot have been forged by the reporter.
public enum ReportVerifier {
    /// Whether the report holds for the stored `envelope`, sent in `conversationId` as
    /// `clientMessageId` by the device whose identity key (base64url) is `senderIdentityKey`.
    public static func verify(
        envelope: Envelope, conversationId: String, clientMessageId: String, senderIdentityKey: String,
        contentKey: Data, plaintext: String
    ) -> Bool {
        guard envelope.v == Envelope.currentVersion, contentKey.count == EnvelopeSuite.contentKeyCount,
            EnvelopeSignature.isValid(
                envelope, conversationId: conversationId, clientMessageId: clientMessageId,
                senderIdentityKey: senderIdentityKey)
        else { return false }
        let opened = EnvelopeContent.open(
            envelope, contentKey: SymmetricKey(data: contentKey), conversationId: conversationId,
            clientMessageId: clientMessageId)
        guard case .success(let bytes) = opened else { return false }
        return bytes == Data(plaintext.utf8)
    }
}
