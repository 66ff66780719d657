import ChirpEncryption
import ChirpModels

/// Devices for encrypted conversations (API.md part 4, "Devices"): the viewer's devices,
/// their keys checked before they are stored, and anyone's list of public keys.
struct DeviceService: Sendable {
    let store: any DeviceStore
    let hub: EventHub
    /// Devices per account at most (API.md: 20).
    let limit: Int
    var now: @Sendable () -> Timestamp = { .now() }

    /// Registers the viewer's device `id` for the session of the request, or rotates its
    /// encryption key; true when it is new.
    func put(_ viewer: Viewer, id: String, _ body: DeviceRequest) async throws -> (Device, created: Bool) {
        try Self.checkId(id)
        guard (1...64).contains(body.name.count) else {
            throw APIError.badParameter("name", "A device name is 1 to 64 characters.")
        }
        do {
            try KeySignatureCheck.verify(body)
        } catch {
            throw APIError(
                .unprocessableContent, APIErrorCode.invalidKeySignature,
                "identityKey (Ed25519) and encryptionKey (X25519) must be 32 bytes of base64url each, and keySignature the identity key's signature over the encryption key.",
                field: "keySignature")
        }
        let new = NewDevice(userId: viewer.id, sessionHash: viewer.tokenHash, id: id, request: body, at: now())
        switch try await store.putDevice(new, limit: limit, notice: try Self.notice(viewer)) {
        case .created(let device, let appended):
            hub.publish(appended)
            return (device, true)
        case .replaced(let device, let appended):
            hub.publish(appended)
            return (device, false)
        case .identityKeyChanged:
            throw APIError(
                .conflict, APIErrorCode.identityKeyChanged,
                "This device id is registered with another identity key: register a new device under a new id.")
        case .tooMany:
            throw APIError(
                .conflict, APIErrorCode.tooManyDevices,
                "An account has at most \(limit) devices: remove one first (DELETE /v1/me/devices/{deviceId}).")
        }
    }

    /// The devices of `username`, oldest first.
    func devices(of username: String) async throws -> [Device] {
        guard let devices = try await store.devices(usernameKey: try UsernameLookup.key(username)) else {
            throw APIError.userNotFound(username)
        }
        return devices
    }

    func delete(_ viewer: Viewer, id: String) async throws {
        try Self.checkId(id)
        let outcome = try await store.deleteDevice(
            userId: viewer.id, deviceId: id, at: now(), notice: try Self.notice(viewer))
        hub.publish(outcome.appended)
    }

    static func checkId(_ id: String) throws {
        guard Validation.isValidClientId(id) else {
            throw APIError.badParameter("deviceId", "A device id is 1 to 64 of A-Z, a-z, 0-9, '_' and '-'.")
        }
    }

    private static func notice(_ viewer: Viewer) throws -> String {
        try APIJSON.encode(DeviceChangedNotice(user: viewer.username))
    }
}
