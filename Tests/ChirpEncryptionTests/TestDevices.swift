import ChirpEncryption
import ChirpModels
import Foundation

/// A device of a test user: its private keys and the `Device` the server would list.
struct TestDevice {
    var keys: DeviceKeys
    var name: String

    init(_ name: String, keys: DeviceKeys = .generate()) {
        self.name = name
        self.keys = keys
    }

    var id: String { keys.deviceId }

    /// The device as `GET /v1/users/{username}/devices` lists it, with its current keys.
    var device: Device {
        get throws {
            let request = try keys.request(name: name)
            return Device(
                id: keys.deviceId, name: name, identityKey: request.identityKey, encryptionKey: request.encryptionKey,
                keySignature: request.keySignature, createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_000))
        }
    }

    var opener: EnvelopeOpener { EnvelopeOpener(keys: keys) }
    var sealer: EnvelopeSealer { EnvelopeSealer(keys: keys) }
}

extension Data {
    /// The bytes of hexadecimal text (test vectors).
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
