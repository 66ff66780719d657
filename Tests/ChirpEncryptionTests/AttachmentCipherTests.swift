import ChirpEncryption
import ChirpModels
import Crypto
import Foundation
import Testing

@Suite("Attachments")
struct AttachmentCipherTests {
    let file = Data((0..<5000).map { UInt8($0 % 251) })

    @Test func anAttachmentRoundTripsThroughItsMediaEntry() throws {
        let encrypted = try AttachmentCipher.encrypt(file)
        #expect(encrypted.uploaded.count == file.count + 16)
        #expect(encrypted.uploaded.startIndex == 0)
        #expect(encrypted.uploaded.prefix(100) != file.prefix(100))
        #expect(encrypted.key.count == 32)
        #expect(encrypted.nonce.count == 12)
        #expect(encrypted.sha256 == Data(SHA256.hash(data: encrypted.uploaded)))

        let media = encrypted.mediaKey(id: "77", contentType: "image/png", name: "cat.png")
        #expect(media.byteCount == 5000)
        #expect(try AttachmentCipher.decrypt(encrypted.uploaded, with: media) == file)
        #expect(try AttachmentCipher.encrypt(file).key != encrypted.key, "a fresh key per file")
    }

    @Test func otherBytesOrAnotherKeyDoNotOpen() throws {
        let encrypted = try AttachmentCipher.encrypt(file)
        let media = encrypted.mediaKey(id: "77", contentType: "image/png")

        var changed = encrypted.uploaded
        changed[10] ^= 1
        #expect(throws: AttachmentError.sha256Mismatch) { try AttachmentCipher.decrypt(changed, with: media) }
        #expect(throws: AttachmentError.sha256Mismatch) {
            try AttachmentCipher.decrypt(encrypted.uploaded.dropLast(), with: media)
        }

        var otherKey = media
        otherKey.key = Base64URL.encode(Data(repeating: 9, count: 32))
        #expect(throws: AttachmentError.decryptionFailed) {
            try AttachmentCipher.decrypt(encrypted.uploaded, with: otherKey)
        }

        var otherLength = media
        otherLength.byteCount = 4999
        #expect(throws: AttachmentError.byteCountMismatch) {
            try AttachmentCipher.decrypt(encrypted.uploaded, with: otherLength)
        }

        var malformed = media
        malformed.nonce = "AAAA"
        #expect(throws: AttachmentError.malformedKey) {
            try AttachmentCipher.decrypt(encrypted.uploaded, with: malformed)
        }
    }
}
