import ChirpEncryption
import ChirpModels
import Foundation
import Testing

/// A report discloses the content key and the plaintext; the server accepts only the true pair.
@Suite("Reports")
struct ReportVerifierTests {
    let conversation = EnvelopeTests.Conversation()

    func verify(_ sealed: SealedEnvelope, contentKey: Data? = nil, plaintext: String? = nil, sender: String? = nil)
        -> Bool
    {
        ReportVerifier.verify(
            envelope: sealed.envelope, conversationId: conversation.conversationId,
            clientMessageId: conversation.clientMessageId,
            senderIdentityKey: sender ?? conversation.alicePhone.keys.identityPublicKey,
            contentKey: contentKey ?? sealed.contentKey,
            plaintext: plaintext ?? String(decoding: sealed.plaintext, as: UTF8.self))
    }

    @Test func theTrueKeyAndPlaintextVerify() throws {
        #expect(verify(try conversation.seal()))
    }

    @Test func aForgedPlaintextKeyOrSenderDoesNot() throws {
        let sealed = try conversation.seal()
        let text = String(decoding: sealed.plaintext, as: UTF8.self)

        #expect(!verify(sealed, plaintext: text.replacingOccurrences(of: "Grüße", with: "Hello")))
        #expect(!verify(sealed, plaintext: text + " "), "exactly the sealed bytes")
        var key = sealed.contentKey
        key[0] ^= 1
        #expect(!verify(sealed, contentKey: key))
        #expect(!verify(sealed, contentKey: sealed.contentKey.prefix(16)))
        #expect(!verify(sealed, sender: TestDevice("mallory").keys.identityPublicKey))
        // Another message's true key and plaintext do not verify this one.
        let other = try conversation.seal(EncryptedPlaintext(text: "something else"))
        #expect(
            !verify(
                sealed, contentKey: other.contentKey, plaintext: String(decoding: other.plaintext, as: UTF8.self)))
        var changed = sealed.envelope
        changed.commitment = Base64URL.encode(Data(repeating: 0, count: 32))
        #expect(!verify(SealedEnvelope(envelope: changed, contentKey: sealed.contentKey, plaintext: sealed.plaintext)))
    }
}
