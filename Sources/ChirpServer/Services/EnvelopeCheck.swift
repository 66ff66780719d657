import ChirpEncryption
import ChirpModels

/// What the server checks of an envelope before it stores it (API.md part 4): its shape, that
/// its sender device is the sender's, and that it is sealed to exactly the members' current
/// devices. It cannot check what is inside: only the members' devices can open it.
enum EnvelopeCheck {
    /// Each byte string with its length when decoded (`nil`: any length of at least the tag's 16).
    private static func lengths(_ envelope: Envelope) -> [(String, String, Int?)] {
        [
            ("nonce", envelope.nonce, 12), ("commitment", envelope.commitment, 32),
            ("signature", envelope.signature, 64), ("ciphertext", envelope.ciphertext, nil),
        ]
    }

    /// The envelope's version, byte lengths and device ids; 422 naming the first that is wrong.
    static func shape(_ envelope: Envelope) throws {
        guard envelope.v == Envelope.currentVersion else { throw invalid("envelope.v", "must be 1") }
        for (name, value, length) in lengths(envelope) {
            guard let bytes = Base64URL.decode(value),
                length.map({ bytes.count == $0 }) ?? (bytes.count >= 16)
            else {
                throw invalid(
                    "envelope.\(name)", length.map { "must be \($0) bytes of base64url" } ?? "must be base64url")
            }
        }
        guard Validation.isValidClientId(envelope.senderDevice) else {
            throw invalid("envelope.senderDevice", "must be a device id")
        }
        var seen = Set<String>()
        for key in envelope.keys {
            guard Validation.isValidClientId(key.device), seen.insert(key.device).inserted else {
                throw invalid("envelope.keys", "must name each device once, by its id")
            }
            guard Base64URL.decode(key.enc)?.count == 32, Base64URL.decode(key.wrappedKey)?.count == 48 else {
                throw invalid("envelope.keys", "each enc must be 32 bytes and each wrappedKey 48, base64url")
            }
        }
    }

    /// Whether the envelope's sender device is one of `sender`'s current devices and its keys
    /// name exactly every current device of `devices` (each member's, by username) but that
    /// one. The sender device unknown is 422; any other difference is 409 `devices_changed`
    /// with the current devices, to seal again to.
    static func recipients(_ envelope: Envelope, sender: String, devices: [String: [Device]]) throws {
        guard devices[sender, default: []].contains(where: { $0.id == envelope.senderDevice }) else {
            throw invalid(
                "envelope.senderDevice", "must be one of your current devices (PUT /v1/me/devices/{deviceId})")
        }
        if let member = devices.filter({ $0.value.isEmpty }).keys.sorted().first {
            throw EncryptionRules.noDevices(member)
        }
        let expected = Set(devices.values.flatMap { $0.map(\.id) }).subtracting([envelope.senderDevice])
        guard Set(envelope.keys.map(\.device)) == expected else {
            var error = APIError(
                .conflict, APIErrorCode.devicesChanged,
                "The members' devices are not the ones this envelope was sealed to: seal it again to the devices listed.",
                field: "envelope.keys")
            error.devices = devices
            throw error
        }
    }

    private static func invalid(_ field: String, _ rule: String) -> APIError {
        APIError(.unprocessableContent, APIErrorCode.invalidParameter, "\(field) \(rule).", field: field)
    }
}
