import ChirpEncryption
import ChirpModels
import Crypto
import Foundation
import Testing

/// Envelopes sealed and opened: every recipient device opens, and each part is bound to the
/// rest so that changing any of it makes the message "could not be verified".
@Suite("Envelopes")
struct EnvelopeTests {
    /// Alice writes from her phone; her laptop and Bob's one device receive.
    struct Conversation {
        var alicePhone = TestDevice("phone")
        var aliceLaptop = TestDevice("laptop")
        var bob = TestDevice("bob's")
        let conversationId = ConversationID.direct("10", "9").rawValue
        let clientMessageId = "4e1b0c0a-2f7a-4b8e-9a51-3f0c6d1e2a77"
        let plaintext = EncryptedPlaintext(text: "Grüße 🐦 \"quoted\" </tag>", replyTo: "120")

        /// Every current device of both members, the sender's own included (the sealer leaves
        /// it out).
        var devices: [Device] {
            get throws { [try alicePhone.device, try aliceLaptop.device, try bob.device] }
        }

        func seal(_ plaintext: EncryptedPlaintext? = nil) throws -> SealedEnvelope {
            try alicePhone.sealer.seal(
                plaintext ?? self.plaintext, conversationId: conversationId, clientMessageId: clientMessageId,
                recipients: try devices)
        }

        func open(
            _ envelope: Envelope, by device: TestDevice, conversationId: String? = nil, clientMessageId: String? = nil
        ) -> EnvelopeOutcome {
            device.opener.open(
                envelope, conversationId: conversationId ?? self.conversationId,
                clientMessageId: clientMessageId ?? self.clientMessageId,
                senderIdentityKey: alicePhone.keys.identityPublicKey)
        }
    }

    @Test func everyRecipientDeviceOpensTheMessageButTheSenderDeviceHasNoEntry() throws {
        let conversation = Conversation()
        let sealed = try conversation.seal()
        let envelope = sealed.envelope

        #expect(conversation.conversationId == "d:10:9")
        #expect(envelope.v == 1)
        #expect(envelope.senderDevice == conversation.alicePhone.id)
        #expect(envelope.keys.map(\.device) == [conversation.aliceLaptop.id, conversation.bob.id])
        #expect(Base64URL.decode(envelope.nonce)?.count == 12)
        #expect(Base64URL.decode(envelope.commitment)?.count == 32)
        #expect(Base64URL.decode(envelope.signature)?.count == 64)
        #expect(Base64URL.decode(envelope.ciphertext)?.count == sealed.plaintext.count + 16)
        for key in envelope.keys {
            #expect(Base64URL.decode(key.enc)?.count == 32)
            #expect(Base64URL.decode(key.wrappedKey)?.count == 48)
        }
        #expect(sealed.contentKey.count == 32)
        #expect(try JSONDecoder().decode(EncryptedPlaintext.self, from: sealed.plaintext) == conversation.plaintext)

        for device in [conversation.aliceLaptop, conversation.bob] {
            #expect(
                conversation.open(envelope, by: device)
                    == .opened(conversation.plaintext, plaintext: sealed.plaintext, contentKey: sealed.contentKey))
        }
        #expect(conversation.open(envelope, by: conversation.alicePhone) == .notSealedToThisDevice)
    }

    @Test func theSealedJSONLeavesOutAnAbsentReplyToAndKeepsSlashes() throws {
        let plaintext = EncryptedPlaintext(
            text: "a/b",
            media: [
                EncryptedMediaKey(
                    id: "7", key: "k", nonce: "n", sha256: "s", contentType: "image/png", byteCount: 3)
            ])
        let json = String(decoding: try EnvelopeSealer.encode(plaintext), as: UTF8.self)
        #expect(
            json
                == #"{"media":[{"byteCount":3,"contentType":"image/png","id":"7","key":"k","nonce":"n","sha256":"s"}],"text":"a/b"}"#
        )
        let withoutMedia = try JSONDecoder().decode(EncryptedPlaintext.self, from: Data(#"{"text":"hi"}"#.utf8))
        #expect(withoutMedia == EncryptedPlaintext(text: "hi"))
    }

    @Test func aDeviceWithoutAnEntryIsToldApart() throws {
        let conversation = Conversation()
        let envelope = try conversation.seal().envelope
        let addedLater = TestDevice("new tablet")
        #expect(conversation.open(envelope, by: addedLater) == .notSealedToThisDevice)
    }

    @Test func eachChangedPartIsUnverifiable() throws {
        let conversation = Conversation()
        let envelope = try conversation.seal().envelope
        let bob = conversation.bob

        func flipped(_ text: String, at index: Int = 0) -> String {
            var bytes = Base64URL.decode(text)!
            bytes[index] ^= 0x01
            return Base64URL.encode(bytes)
        }

        var ciphertext = envelope
        ciphertext.ciphertext = flipped(envelope.ciphertext)
        #expect(conversation.open(ciphertext, by: bob) == .unverifiable(.badSignature))

        var commitment = envelope
        commitment.commitment = flipped(envelope.commitment)
        #expect(conversation.open(commitment, by: bob) == .unverifiable(.badSignature))

        var signature = envelope
        signature.signature = flipped(envelope.signature, at: 10)
        #expect(conversation.open(signature, by: bob) == .unverifiable(.badSignature))

        var wrappedKey = envelope
        wrappedKey.keys[1].wrappedKey = flipped(envelope.keys[1].wrappedKey)
        #expect(conversation.open(wrappedKey, by: bob) == .unverifiable(.badSignature))

        var version = envelope
        version.v = 2
        #expect(conversation.open(version, by: bob) == .unverifiable(.unsupportedVersion))

        #expect(conversation.open(envelope, by: bob, conversationId: "d:10:8") == .unverifiable(.badSignature))
        #expect(conversation.open(envelope, by: bob, clientMessageId: "another") == .unverifiable(.badSignature))

        let otherSender = TestDevice("mallory").keys.identityPublicKey
        #expect(
            bob.opener.open(
                envelope, conversationId: conversation.conversationId, clientMessageId: conversation.clientMessageId,
                senderIdentityKey: otherSender) == .unverifiable(.badSignature))
    }

    /// A sender that signs what it tampered with (an insider, or a bug) still fails the later
    /// checks: the key unwrap, the AES-GCM tag, the commitment, the JSON.
    @Test func aSignedButInconsistentEnvelopeIsUnverifiable() throws {
        let conversation = Conversation()
        let sealed = try conversation.seal()
        let identity = conversation.alicePhone.keys.identityKey

        func resigned(_ change: (inout Envelope) -> Void) throws -> Envelope {
            var envelope = sealed.envelope
            change(&envelope)
            let bytes = CanonicalEnvelopeJSON.signedBytes(
                envelope, conversationId: conversation.conversationId, clientMessageId: conversation.clientMessageId)
            envelope.signature = Base64URL.encode(try identity.signature(for: bytes))
            return envelope
        }
        func flip(_ text: inout String) {
            var bytes = Base64URL.decode(text)!
            bytes[0] ^= 0x80
            text = Base64URL.encode(bytes)
        }

        let resignedAsIs = try resigned { _ in }
        #expect(
            conversation.open(resignedAsIs, by: conversation.bob)
                == .opened(conversation.plaintext, plaintext: sealed.plaintext, contentKey: sealed.contentKey))
        #expect(
            conversation.open(try resigned { flip(&$0.keys[1].wrappedKey) }, by: conversation.bob)
                == .unverifiable(.keyNotUnwrapped))
        #expect(
            conversation.open(try resigned { flip(&$0.keys[1].enc) }, by: conversation.bob)
                == .unverifiable(.keyNotUnwrapped))
        #expect(
            conversation.open(try resigned { flip(&$0.ciphertext) }, by: conversation.bob)
                == .unverifiable(.decryptionFailed))
        #expect(
            conversation.open(try resigned { flip(&$0.nonce) }, by: conversation.bob)
                == .unverifiable(.decryptionFailed))
        #expect(
            conversation.open(try resigned { flip(&$0.commitment) }, by: conversation.bob)
                == .unverifiable(.commitmentMismatch))
        #expect(
            conversation.open(try resigned { $0.nonce = "AAAA" }, by: conversation.bob) == .unverifiable(.malformed))
        // Bob's entry moved to the laptop's: the key was sealed to another key and another device.
        #expect(
            conversation.open(try resigned { $0.keys[1].device = "someone-else" }, by: conversation.bob)
                == .notSealedToThisDevice)

        // A valid envelope around bytes that are not the plaintext JSON.
        let raw = try conversation.alicePhone.sealer.seal(
            bytes: Data("not json".utf8), conversationId: conversation.conversationId,
            clientMessageId: conversation.clientMessageId, recipients: try conversation.devices)
        #expect(conversation.open(raw.envelope, by: conversation.bob) == .unverifiable(.unreadablePlaintext))
    }

    @Test func aRotatedKeyStillOpensOlderEnvelopesUntilItIsDropped() throws {
        var conversation = Conversation()
        let before = try conversation.seal()
        let rotation = Timestamp(millisecondsSince1970: 1_790_000_000_000)
        let oldEncryptionKey = conversation.bob.keys.encryptionPublicKey

        conversation.bob.keys.rotate(now: rotation)
        #expect(conversation.bob.keys.encryptionPublicKey != oldEncryptionKey)
        #expect(conversation.bob.keys.retiredKeys.map(\.replacedAt) == [rotation])
        let after = try conversation.seal()

        #expect(
            conversation.open(before.envelope, by: conversation.bob)
                == .opened(conversation.plaintext, plaintext: before.plaintext, contentKey: before.contentKey))
        #expect(
            conversation.open(after.envelope, by: conversation.bob)
                == .opened(conversation.plaintext, plaintext: after.plaintext, contentKey: after.contentKey))

        conversation.bob.keys.dropRetired(before: rotation)
        #expect(conversation.bob.keys.retiredKeys.count == 1, "replaced at the cut-off, not before it")
        conversation.bob.keys.dropRetired(before: Timestamp(millisecondsSince1970: rotation.millisecondsSince1970 + 1))
        #expect(conversation.bob.keys.retiredKeys.isEmpty)
        #expect(conversation.open(before.envelope, by: conversation.bob) == .unverifiable(.keyNotUnwrapped))
        #expect(
            conversation.open(after.envelope, by: conversation.bob)
                == .opened(conversation.plaintext, plaintext: after.plaintext, contentKey: after.contentKey))
    }

    @Test func aDeviceWhoseKeySignatureFailsIsNotSealedTo() throws {
        let conversation = Conversation()
        var forged = try conversation.bob.device
        forged.encryptionKey = TestDevice("mallory").keys.encryptionPublicKey
        #expect(throws: EnvelopeSealingError.invalidDeviceKeys(device: forged.id, .badSignature)) {
            try conversation.alicePhone.sealer.seal(
                conversation.plaintext, conversationId: conversation.conversationId,
                clientMessageId: conversation.clientMessageId, recipients: [forged])
        }
    }

    @Test func canonicalJSONOfAFixedEnvelopeIsExact() {
        let envelope = Envelope(
            senderDevice: "dev_A-1", nonce: "bm9uY2U", ciphertext: "Y2lwaGVy", commitment: "Y29tbWl0",
            keys: [
                EnvelopeKey(device: "zeta", enc: "ZW5jMQ", wrappedKey: "d3JhcDE"),
                EnvelopeKey(device: "alpha", enc: "ZW5jMg", wrappedKey: "d3JhcDI"),
            ],
            signature: "not part of it")
        let expected =
            #"{"ciphertext":"Y2lwaGVy","commitment":"Y29tbWl0","keys":[{"device":"zeta","enc":"ZW5jMQ","wrappedKey":"d3JhcDE"},{"device":"alpha","enc":"ZW5jMg","wrappedKey":"d3JhcDI"}],"nonce":"bm9uY2U","senderDevice":"dev_A-1","v":1}"#
        #expect(CanonicalEnvelopeJSON.json(envelope) == expected)
        #expect(
            CanonicalEnvelopeJSON.signedBytes(envelope, conversationId: "g:42", clientMessageId: "c-1")
                == Data((expected + "\ng:42\nc-1").utf8))

        // Not reachable with base64url, but escaped as JSON.stringify escapes.
        var odd = envelope
        odd.keys = []
        odd.senderDevice = "q\"b\\s/\u{08}\u{0C}\n\r\t\u{01}\u{1F}é"
        #expect(
            CanonicalEnvelopeJSON.json(odd)
                == #"{"ciphertext":"Y2lwaGVy","commitment":"Y29tbWl0","keys":[],"nonce":"bm9uY2U","senderDevice":"q\"b\\s/\b\f\n\r\t\u0001\u001fé","v":1}"#
        )
    }

    @Test func conversationIdsSortUserIdsAsStrings() {
        #expect(ConversationID.direct("9", "10").rawValue == "d:10:9")
        #expect(ConversationID.direct("10", "9").rawValue == "d:10:9")
        #expect(ConversationID.direct("3", "3").rawValue == "d:3:3")
        #expect(ConversationID.group("42").rawValue == "g:42")
    }

    @Test func envelopeWireJSONRoundTrips() throws {
        let sealed = try Conversation().seal()
        let data = try JSONEncoder().encode(sealed.envelope)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == ["v", "senderDevice", "nonce", "ciphertext", "commitment", "keys", "signature"])
        #expect(object["v"] as? Int == 1)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == sealed.envelope)
    }
}
