import ChirpEncryption
import ChirpModels
import Crypto
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Device keys")
struct DeviceKeysTests {
    @Test func aNewDeviceHasA22CharacterIdAndASignedEncryptionKey() throws {
        let keys = DeviceKeys.generate()
        #expect(keys.deviceId.count == 22)
        #expect(Base64URL.decode(keys.deviceId)?.count == 16)
        let request = try keys.request(name: "laptop")
        #expect(request.name == "laptop")
        #expect(request.identityKey == Base64URL.encode(keys.identityKey.publicKey.rawRepresentation))
        #expect(request.encryptionKey == Base64URL.encode(keys.encryptionKey.publicKey.rawRepresentation))
        #expect(Base64URL.decode(request.keySignature)?.count == 64)
        #expect(
            keys.identityKey.publicKey.isValidSignature(
                Base64URL.decode(request.keySignature)!, for: keys.encryptionKey.publicKey.rawRepresentation))
        try KeySignatureCheck.verify(request)
    }

    @Test func aRotationKeepsTheIdentityAndSignsTheNewKey() throws {
        var keys = DeviceKeys.generate()
        let before = try keys.request(name: "laptop")
        keys.rotate(now: Timestamp(millisecondsSince1970: 1000))
        keys.rotate(now: Timestamp(millisecondsSince1970: 2000))
        let after = try keys.request(name: "laptop")
        #expect(after.identityKey == before.identityKey)
        #expect(after.encryptionKey != before.encryptionKey)
        try KeySignatureCheck.verify(after)
        #expect(keys.retiredKeys.map(\.replacedAt.millisecondsSince1970) == [1000, 2000])
        #expect(
            keys.openingKeys.map(\.publicKey.rawRepresentation)
                == [keys.encryptionKey, keys.retiredKeys[1].key, keys.retiredKeys[0].key].map(
                    \.publicKey.rawRepresentation))
        keys.dropRetired(before: Timestamp(millisecondsSince1970: 1500))
        #expect(keys.retiredKeys.map(\.replacedAt.millisecondsSince1970) == [2000])
    }

    @Test func aBadSignatureOrAMalformedKeyIsRefused() throws {
        let keys = DeviceKeys.generate()
        let good = try keys.request(name: "laptop")
        let other = try DeviceKeys.generate().request(name: "other")

        var swappedKey = good
        swappedKey.encryptionKey = other.encryptionKey
        #expect(throws: KeySignatureError.badSignature) { try KeySignatureCheck.verify(swappedKey) }
        var swappedIdentity = good
        swappedIdentity.identityKey = other.identityKey
        #expect(throws: KeySignatureError.badSignature) { try KeySignatureCheck.verify(swappedIdentity) }

        var shortIdentity = good
        shortIdentity.identityKey = String(good.identityKey.dropLast(2))
        #expect(throws: KeySignatureError.malformedIdentityKey) { try KeySignatureCheck.verify(shortIdentity) }
        var paddedKey = good
        paddedKey.encryptionKey += "="
        #expect(throws: KeySignatureError.malformedEncryptionKey) { try KeySignatureCheck.verify(paddedKey) }
        var longKey = good
        longKey.encryptionKey = Base64URL.encode(Data(repeating: 1, count: 33))
        #expect(throws: KeySignatureError.malformedEncryptionKey) { try KeySignatureCheck.verify(longKey) }
        var standardAlphabet = good
        standardAlphabet.keySignature = good.keySignature.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        if standardAlphabet.keySignature != good.keySignature {
            #expect(throws: KeySignatureError.malformedSignature) { try KeySignatureCheck.verify(standardAlphabet) }
        }
        var shortSignature = good
        shortSignature.keySignature = Base64URL.encode(Data(repeating: 0, count: 63))
        #expect(throws: KeySignatureError.malformedSignature) { try KeySignatureCheck.verify(shortSignature) }

        let device = Device(
            id: keys.deviceId, name: "laptop", identityKey: good.identityKey, encryptionKey: good.encryptionKey,
            keySignature: good.keySignature, createdAt: .now())
        #expect(KeySignatureCheck.isValid(device))
    }
}

@Suite("Base64url")
struct Base64URLTests {
    @Test func encodesWithoutPaddingAndDecodesOnlyCanonicalText() {
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
        #expect(Base64URL.encode(Data()) == "")
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("") == Data())
        #expect(Base64URL.decode("-_8=") == nil, "no padding")
        #expect(Base64URL.decode("+/8") == nil, "no standard alphabet")
        #expect(Base64URL.decode("-_9") == nil, "unused bits must be zero")
        #expect(Base64URL.decode("-_ 8") == nil)
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AAAA", count: 3) == Data([0, 0, 0]))
        #expect(Base64URL.decode("AAAA", count: 4) == nil)
        for count in 0..<40 {
            let bytes = Data((0..<count).map { UInt8(($0 * 37 + 11) % 256) })
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}

@Suite("Device key file")
struct DeviceKeyFileTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chirp-keys-\(UUID().uuidString)")
    }

    func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    @Test func keysAreSavedIn0600InA0700DirectoryAndLoadAgain() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = DeviceKeyFile(directory: root.appendingPathComponent("alice"))
        #expect(try file.load() == nil)

        var keys = DeviceKeys.generate()
        keys.rotate(now: Timestamp(millisecondsSince1970: 1_790_000_000_123))
        try file.save(keys)
        #expect(mode(file.directory.path) == 0o700)
        #expect(mode(file.url.path) == 0o600)
        #expect(file.url.lastPathComponent == "device-keys.json")

        let loaded = try #require(try file.load())
        #expect(loaded.deviceId == keys.deviceId)
        #expect(loaded.identityKey.rawRepresentation == keys.identityKey.rawRepresentation)
        #expect(loaded.encryptionKey.rawRepresentation == keys.encryptionKey.rawRepresentation)
        #expect(loaded.retiredKeys.map(\.key.rawRepresentation) == keys.retiredKeys.map(\.key.rawRepresentation))
        #expect(loaded.retiredKeys.map(\.replacedAt) == [Timestamp(millisecondsSince1970: 1_790_000_000_123)])

        // Saving again replaces the file and leaves no temporary file behind.
        keys.rotate(now: Timestamp(millisecondsSince1970: 1_790_000_000_999))
        try file.save(keys)
        #expect(try file.load()?.retiredKeys.count == 2)
        #expect(mode(file.url.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.directory.path) == ["device-keys.json"])
    }

    @Test func aFileGroupOrOthersMayReadIsRefused() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = DeviceKeyFile(directory: root)
        try file.save(DeviceKeys.generate())

        #expect(chmod(file.url.path, 0o644) == 0)
        #expect(throws: DeviceKeyFileError.permissionsTooOpen(path: file.url.path, mode: 0o644)) { try file.load() }
        #expect(chmod(file.url.path, 0o620) == 0)
        #expect(throws: DeviceKeyFileError.permissionsTooOpen(path: file.url.path, mode: 0o620)) { try file.load() }
        #expect(
            "\(DeviceKeyFileError.permissionsTooOpen(path: "/k", mode: 0o644))"
                == "/k has mode 644: group or others may read it, so its keys are not used")
        #expect(chmod(file.url.path, 0o600) == 0)
        #expect(try file.load() != nil)
    }

    @Test func aFileThatIsNotAKeyFileIsUnreadable() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = DeviceKeyFile(directory: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file.url.path, contents: Data("{}".utf8)))
        #expect(chmod(file.url.path, 0o600) == 0)
        #expect(throws: DeviceKeyFileError.unreadable(path: file.url.path)) { try file.load() }
    }
}
