import Crypto
import Foundation
import Testing

/// RFC 9180's test vectors for base mode with DHKEM(X25519, HKDF-SHA256) and HKDF-SHA256, with
/// AES-128-GCM and with AES-256-GCM (the envelope's suite), from swift-crypto's own test data
/// (`Fixtures/hpke-test-vectors.json`, the first three encryptions of each): swift-crypto's
/// HPKE opens them with the suite ids the envelope uses.
@Suite("HPKE test vectors (RFC 9180)")
struct HPKEVectorTests {
    struct Vector: Decodable {
        struct Encryption: Decodable {
            var aad: String
            var ct: String
            var nonce: String
            var pt: String
        }

        var mode: Int
        var kem_id: Int
        var kdf_id: Int
        var aead_id: Int
        var info: String
        var skRm: String
        var pkRm: String
        var enc: String
        var encryptions: [Encryption]
    }

    static func vectors() throws -> [Vector] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/hpke-test-vectors", withExtension: "json"))
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }

    @Test func theFixtureHoldsBaseModeX25519WithBothAESGCMs() throws {
        let vectors = try Self.vectors()
        #expect(vectors.map(\.aead_id).sorted() == [1, 2])
        #expect(vectors.allSatisfy { $0.mode == 0 && $0.kem_id == 0x20 && $0.kdf_id == 1 })
    }

    @Test(arguments: [HPKE.AEAD.AES_GCM_128, .AES_GCM_256])
    func recipientOpensEachEncryptionInOrder(aead: HPKE.AEAD) throws {
        let id = aead == .AES_GCM_128 ? 1 : 2
        let vector = try #require(try Self.vectors().first { $0.aead_id == id })
        let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(hex: vector.skRm))
        #expect(privateKey.publicKey.rawRepresentation == Data(hex: vector.pkRm))
        let suite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: aead)
        var recipient = try HPKE.Recipient(
            privateKey: privateKey, ciphersuite: suite, info: Data(hex: vector.info),
            encapsulatedKey: Data(hex: vector.enc))
        #expect(vector.encryptions.count == 3)
        for encryption in vector.encryptions {
            let opened = try recipient.open(Data(hex: encryption.ct), authenticating: Data(hex: encryption.aad))
            #expect(opened == Data(hex: encryption.pt))
        }
    }

    @Test func anotherAADOrInfoDoesNotOpen() throws {
        let vector = try #require(try Self.vectors().first { $0.aead_id == 2 })
        let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(hex: vector.skRm))
        let suite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_256)
        let first = try #require(vector.encryptions.first)

        var recipient = try HPKE.Recipient(
            privateKey: privateKey, ciphersuite: suite, info: Data(hex: vector.info),
            encapsulatedKey: Data(hex: vector.enc))
        #expect(throws: (any Error).self) { try recipient.open(Data(hex: first.ct), authenticating: Data()) }

        var otherInfo = try HPKE.Recipient(
            privateKey: privateKey, ciphersuite: suite, info: Data("chirp-v1g:1".utf8),
            encapsulatedKey: Data(hex: vector.enc))
        #expect(throws: (any Error).self) {
            try otherInfo.open(Data(hex: first.ct), authenticating: Data(hex: first.aad))
        }
    }
}
