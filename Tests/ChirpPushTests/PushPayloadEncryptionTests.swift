import ChirpPush
import Crypto
import Foundation
import Testing

/// RFC 8291's encryption, checked against the RFC's own example (Appendix A) and both ways.
@Suite("Push payload encryption")
struct PushPayloadEncryptionTests {
    /// RFC 8291 Appendix A, all base64url.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let senderPublicKey =
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let receiverPrivateKey = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let receiverPublicKey =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let message =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    func bytes(_ base64URL: String) -> Data { Data(base64URLEncoded: base64URL)! }

    var receiver: PushPayloadDecryptor {
        get throws {
            PushPayloadDecryptor(
                privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(Example.receiverPrivateKey)),
                authSecret: bytes(Example.authSecret))
        }
    }

    @Test func encryptsRFC8291sExampleToItsMessage() throws {
        let keys = try PushSubscriptionKeys(p256dh: Example.receiverPublicKey, auth: Example.authSecret)
        let senderKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(Example.senderPrivateKey))
        #expect(senderKey.publicKey.x963Representation.base64URLEncodedString() == Example.senderPublicKey)

        let body = try PushPayloadEncryptor().encrypt(
            Data(Example.plaintext.utf8), for: keys, salt: bytes(Example.salt), senderKey: senderKey)

        #expect(body.base64URLEncodedString() == Example.message)
    }

    @Test func decryptsRFC8291sExampleMessage() throws {
        let plaintext = try receiver.decrypt(bytes(Example.message))
        #expect(String(decoding: plaintext, as: UTF8.self) == Example.plaintext)
    }

    @Test func aFreshMessageDecryptsWithTheSubscriptionsPrivateKeyAndAuthSecret() throws {
        let privateKey = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0) })
        let keys = try PushSubscriptionKeys(p256dh: privateKey.publicKey, auth: auth)
        let payload = Data(#"{"type":"message","text":"hi"}"#.utf8)

        let first = try PushPayloadEncryptor().encrypt(payload, for: keys)
        let second = try PushPayloadEncryptor().encrypt(payload, for: keys)

        // salt(16) | rs = 4096 | idlen = 65 | sender key(65) | ciphertext, delimiter | tag(16)
        #expect(first.count == 86 + payload.count + 1 + 16)
        #expect([UInt8](first[16..<21]) == [0, 0, 0x10, 0, 65])
        #expect(first.prefix(16) != second.prefix(16), "a fresh salt per message")
        #expect(first[21..<86] != second[21..<86], "a fresh ephemeral key per message")
        let decryptor = PushPayloadDecryptor(privateKey: privateKey, authSecret: auth)
        #expect(try decryptor.decrypt(first) == payload)
        #expect(try decryptor.decrypt(second) == payload)
    }

    @Test func aChangedByteOrAnotherAuthSecretDoesNotDecrypt() throws {
        var tampered = bytes(Example.message)
        tampered[tampered.count - 20] ^= 1
        #expect(throws: PushEncryptionError.malformedRecord) { try receiver.decrypt(tampered) }

        let other = PushPayloadDecryptor(
            privateKey: try receiver.privateKey, authSecret: Data(repeating: 7, count: 16))
        #expect(throws: PushEncryptionError.malformedRecord) { try other.decrypt(bytes(Example.message)) }
        #expect(throws: PushEncryptionError.malformedHeader) { try receiver.decrypt(Data(count: 30)) }
    }

    @Test func aPlaintextOverOneRecordIsRefused() throws {
        let keys = try PushSubscriptionKeys(p256dh: Example.receiverPublicKey, auth: Example.authSecret)
        let fits = Data(repeating: 0x41, count: PushPayloadEncryptor.maximumPlaintextLength)
        #expect(try PushPayloadEncryptor().encrypt(fits, for: keys).count == 86 + 4096)
        #expect(throws: PushEncryptionError.payloadTooLarge(4080)) {
            try PushPayloadEncryptor().encrypt(fits + [0x41], for: keys)
        }
    }

    @Test func subscriptionKeysThatAreNotAPointAndSixteenBytesAreRefused() {
        #expect(throws: PushEncryptionError.invalidP256dh) {
            try PushSubscriptionKeys(p256dh: "BCVxsr7N", auth: Example.authSecret)
        }
        #expect(throws: PushEncryptionError.invalidP256dh) {
            try PushSubscriptionKeys(p256dh: Example.receiverPublicKey + "+/", auth: Example.authSecret)
        }
        #expect(throws: PushEncryptionError.invalidAuthSecret) {
            try PushSubscriptionKeys(p256dh: Example.receiverPublicKey, auth: "BTBZMqHH6r4Tts7J")
        }
    }
}
