import ChirpEncryption
import ChirpModels
import Crypto
import Foundation
import Testing

/// The fixtures the Swift kit and the web client exchange (`Tests/Fixtures/encryption/`):
/// `swift-sealed.json`, sealed once by this kit with keys made for it and checked in, and
/// `web-sealed.json`, sealed by the web client. Each must open here (and in
/// `check_vectors.py`, an independent Python reading of the spec). Set
/// `CHIRP_WRITE_ENCRYPTION_FIXTURE=1` to seal `swift-sealed.json` anew (new keys, new bytes).
@Suite("Interop fixtures", .serialized)
struct InteropFixtureTests {
    /// One sealed message and what opens it. Bytes are base64url; `plaintext` is the exact
    /// sealed JSON text.
    struct SealedFixture: Codable {
        struct Attachment: Codable {
            /// The media entry's `id` in the plaintext.
            var mediaId: String
            /// The file's bytes.
            var file: String
            /// The uploaded (encrypted) bytes.
            var uploaded: String
        }

        struct SafetyNumberVector: Codable {
            struct Party: Codable {
                var username: String
                var identityKeys: [String]
            }

            var first: Party
            var second: Party
            var digits: String
        }

        var description: String?
        var conversationId: String
        var clientMessageId: String
        var senderIdentityKey: String
        var recipientDeviceId: String
        /// The recipient device's X25519 private key, 32 raw bytes.
        var recipientPrivateKey: String
        var envelope: Envelope
        var plaintext: String
        var contentKey: String
        /// Every device of the conversation as the server lists them.
        var devices: [Device]?
        var attachment: Attachment?
        var safetyNumber: SafetyNumberVector?
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/encryption")

    @Test func swiftSealedOpens() throws {
        let url = Self.directory.appendingPathComponent("swift-sealed.json")
        if ProcessInfo.processInfo.environment["CHIRP_WRITE_ENCRYPTION_FIXTURE"] == "1" {
            try Self.writeSwiftFixture(to: url)
        }
        let fixture = try JSONDecoder().decode(SealedFixture.self, from: Data(contentsOf: url))
        #expect(fixture.attachment != nil && fixture.safetyNumber != nil && fixture.devices?.count == 3)
        try Self.check(fixture, from: "swift-sealed.json")
    }

    @Test func webSealedOpensWhenPresent() throws {
        let url = Self.directory.appendingPathComponent("web-sealed.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let fixture: SealedFixture
        do {
            fixture = try JSONDecoder().decode(SealedFixture.self, from: Data(contentsOf: url))
        } catch {
            Issue.record("web-sealed.json is present but does not decode: \(error)")
            return
        }
        try Self.check(fixture, from: "web-sealed.json")
    }

    /// Opens the fixture as its recipient device and checks every part it carries.
    static func check(_ fixture: SealedFixture, from name: String) throws {
        let privateKey = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: try #require(Base64URL.decode(fixture.recipientPrivateKey, count: 32), "\(name)"))
        let keys = DeviceKeys(
            deviceId: fixture.recipientDeviceId, identityKey: Curve25519.Signing.PrivateKey(), encryptionKey: privateKey
        )
        let outcome = EnvelopeOpener(keys: keys).open(
            fixture.envelope, conversationId: fixture.conversationId, clientMessageId: fixture.clientMessageId,
            senderIdentityKey: fixture.senderIdentityKey)
        guard case .opened(let message, let plaintext, let opened) = outcome else {
            Issue.record("\(name) does not open: \(outcome)")
            return
        }
        #expect(plaintext == Data(fixture.plaintext.utf8), "\(name): the sealed bytes")
        #expect(Base64URL.encode(opened) == fixture.contentKey, "\(name): the content key a report discloses")
        #expect(try JSONDecoder().decode(EncryptedPlaintext.self, from: Data(fixture.plaintext.utf8)) == message)

        let contentKey = try #require(Base64URL.decode(fixture.contentKey, count: 32), "\(name)")
        #expect(
            ReportVerifier.verify(
                envelope: fixture.envelope, conversationId: fixture.conversationId,
                clientMessageId: fixture.clientMessageId, senderIdentityKey: fixture.senderIdentityKey,
                contentKey: contentKey, plaintext: fixture.plaintext), "\(name): the report verifies")

        for device in fixture.devices ?? [] {
            #expect(KeySignatureCheck.isValid(device), "\(name): device \(device.id)'s key signature")
        }
        if let devices = fixture.devices {
            #expect(
                devices.contains {
                    $0.id == fixture.envelope.senderDevice && $0.identityKey == fixture.senderIdentityKey
                })
            #expect(
                Set(fixture.envelope.keys.map(\.device))
                    == Set(devices.map(\.id).filter { $0 != fixture.envelope.senderDevice }),
                "\(name): sealed to every device but the sender's")
        }
        if let attachment = fixture.attachment {
            let media = try #require(message.media.first { $0.id == attachment.mediaId }, "\(name)")
            let uploaded = try #require(Base64URL.decode(attachment.uploaded), "\(name)")
            #expect(try AttachmentCipher.decrypt(uploaded, with: media) == Base64URL.decode(attachment.file))
        }
        if let vector = fixture.safetyNumber {
            let number = try SafetyNumber(
                (vector.first.username, vector.first.identityKeys), (vector.second.username, vector.second.identityKeys)
            )
            #expect(number.digits == vector.digits, "\(name): the safety number")
        }
    }

    /// Seals `swift-sealed.json`: Alice's phone writes to Bob, her laptop receives too; the file
    /// gives Bob's device's private key.
    static func writeSwiftFixture(to url: URL) throws {
        let createdAt = Timestamp(millisecondsSince1970: 1_790_000_000_000)
        func device(_ keys: DeviceKeys, _ name: String) throws -> Device {
            let request = try keys.request(name: name)
            return Device(
                id: keys.deviceId, name: name, identityKey: request.identityKey, encryptionKey: request.encryptionKey,
                keySignature: request.keySignature, createdAt: createdAt)
        }
        let alicePhone = DeviceKeys.generate()
        let aliceLaptop = DeviceKeys.generate()
        let bob = DeviceKeys.generate()
        let devices = [
            try device(alicePhone, "Alice's phone"), try device(aliceLaptop, "Alice's laptop"),
            try device(bob, "Bob's computer"),
        ]

        let file = Data("A small file: bytes 00-FF follow.\n".utf8) + Data((0...255).map { UInt8($0) })
        let encrypted = try AttachmentCipher.encrypt(file)
        let media = encrypted.mediaKey(id: "3141", contentType: "application/octet-stream", name: "bytes/all.bin")
        let plaintext = EncryptedPlaintext(
            text: "Grüße aus Zürich 🐦 — \"quoted\", back\\slash, </script> & a\nnew line", replyTo: "120",
            media: [media])
        let conversationId = ConversationID.direct("9", "10").rawValue
        let clientMessageId = "9b2f6a1e-54c3-4d0a-8f7e-2c1d3b4a5e6f"
        let sealed = try EnvelopeSealer(keys: alicePhone).seal(
            plaintext, conversationId: conversationId, clientMessageId: clientMessageId, recipients: devices)
        let number = try SafetyNumber(
            ("alice", [devices[0].identityKey, devices[1].identityKey]), ("bob", [devices[2].identityKey]))

        let fixture = SealedFixture(
            description:
                "Issue 55 envelope v1 (API.md part 4), sealed by ChirpEncryption (Swift) with keys made for this file only. Bytes are base64url without padding; plaintext is the exact sealed text.",
            conversationId: conversationId, clientMessageId: clientMessageId,
            senderIdentityKey: alicePhone.identityPublicKey, recipientDeviceId: bob.deviceId,
            recipientPrivateKey: Base64URL.encode(bob.encryptionKey.rawRepresentation), envelope: sealed.envelope,
            plaintext: String(decoding: sealed.plaintext, as: UTF8.self),
            contentKey: Base64URL.encode(sealed.contentKey),
            devices: devices,
            attachment: SealedFixture.Attachment(
                mediaId: media.id, file: Base64URL.encode(file), uploaded: Base64URL.encode(encrypted.uploaded)),
            safetyNumber: SealedFixture.SafetyNumberVector(
                first: .init(username: "alice", identityKeys: [devices[0].identityKey, devices[1].identityKey]),
                second: .init(username: "bob", identityKeys: [devices[2].identityKey]), digits: number.digits))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (encoder.encode(fixture) + Data("\n".utf8)).write(to: url, options: .atomic)
    }
}
