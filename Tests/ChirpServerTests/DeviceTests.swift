import ChirpEncryption
import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// Devices for encrypted conversations (issue 55, API.md part 4 "Devices") against a real
/// server: registration, rotation, the identity key bound to its id, the cap, signatures,
/// listing, removal and logout, and `device.changed`.
@Suite("Devices")
struct DeviceTests {
    static func put(
        _ api: APIHarness, _ viewer: Session, _ keys: DeviceKeys, id: String? = nil, name: String = "laptop"
    )
        async throws -> Reply
    {
        try await api.send(
            .PUT, "/v1/me/devices/\(id ?? keys.deviceId)", token: viewer.token, json: try keys.request(name: name))
    }

    static func devices(_ api: APIHarness, of username: String, as viewer: Session) async throws -> [Device] {
        let reply = try await api.send(.GET, "/v1/users/\(username)/devices", token: viewer.token)
        try #require(reply.status == 200, "devices: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    @Test func aDeviceIsRegisteredOnceRotatedInPlaceAndListedWithItsKeys() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            var keys = DeviceKeys.generate()
            let created = try await Self.put(api, ann, keys)
            #expect(created.status == 201, "\(created.text)")
            let device: Device = try created.decode()
            #expect(device.id == keys.deviceId && device.identityKey == keys.identityPublicKey)
            #expect(try await Self.put(api, ann, keys, name: "work laptop").status == 200, "the same device again")

            keys.rotate()
            let rotated = try await Self.put(api, ann, keys, name: "work laptop")
            #expect(rotated.status == 200)
            let listed = try await Self.devices(api, of: "ann", as: bob)
            #expect(listed.map(\.id) == [keys.deviceId])
            #expect(listed.first?.encryptionKey == keys.encryptionPublicKey, "the rotated key replaced the old one")
            #expect(listed.first?.name == "work laptop")
            #expect(listed.allSatisfy(KeySignatureCheck.isValid))

            // A new device and a rotation told ann's other devices; renaming did not.
            let changes = try await api.allEvents(ann).filter { $0.type == EventType.deviceChanged }
            #expect(
                changes.map(\.payload) == Array(repeating: .deviceChanged(DeviceChangedNotice(user: "ann")), count: 2))
            #expect(try await api.allEvents(bob).contains { $0.type == EventType.deviceChanged } == false)
        }
    }

    @Test func anIdKeepsItsIdentityKeyAndItsAccount() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            let mallory = try await api.register("mallory")
            let keys = DeviceKeys.generate()
            #expect(try await Self.put(api, ann, keys).status == 201)
            let other = DeviceKeys.generate()
            let replaced = try await Self.put(api, ann, other, id: keys.deviceId)
            #expect(replaced.status == 409 && replaced.errorCode == "identity_key_changed")
            let taken = try await Self.put(api, mallory, other, id: keys.deviceId)
            #expect(taken.status == 409 && taken.errorCode == "identity_key_changed")
            let copied = try await Self.put(api, mallory, keys)
            #expect(copied.status == 409, "another account cannot take over a device with its public keys")
            #expect(try await Self.devices(api, of: "ann", as: mallory).map(\.identityKey) == [keys.identityPublicKey])
            #expect(try await Self.devices(api, of: "mallory", as: ann).isEmpty)
        }
    }

    @Test func badKeysIdsAndNamesAreRefusedAndTheCapHolds() async throws {
        try await TestServer.run(TestServer.configuration { $0.maxDevices = 3 }) { api in
            let ann = try await api.register("ann")
            let keys = DeviceKeys.generate()
            var forged = try keys.request(name: "laptop")
            forged.encryptionKey = DeviceKeys.generate().encryptionPublicKey
            let bad = try await api.send(.PUT, "/v1/me/devices/\(keys.deviceId)", token: ann.token, json: forged)
            #expect(bad.status == 422 && bad.errorCode == "invalid_key_signature", "\(bad.text)")
            var short = try keys.request(name: "laptop")
            short.identityKey = "AAAA"
            #expect(
                try await api.send(.PUT, "/v1/me/devices/\(keys.deviceId)", token: ann.token, json: short).errorCode
                    == "invalid_key_signature")
            let badId = try await Self.put(api, ann, keys, id: "no*stars")
            #expect(badId.status == 400 && badId.errorCode == "invalid_parameter")
            #expect(try await Self.put(api, ann, keys, name: "").status == 400)
            #expect(try await Self.devices(api, of: "ann", as: ann).isEmpty, "nothing refused was stored")

            for _ in 0..<3 { #expect(try await Self.put(api, ann, DeviceKeys.generate()).status == 201) }
            let fourth = try await Self.put(api, ann, DeviceKeys.generate())
            #expect(fourth.status == 409 && fourth.errorCode == "too_many_devices")
            let unknown = try await api.send(.GET, "/v1/users/nobody/devices", token: ann.token)
            #expect(unknown.status == 404)
            #expect(try await api.send(.GET, "/v1/users/ann/devices").status == 401)
        }
    }

    @Test func aDeviceGoesWhenDeletedOrWhenItsSessionEnds() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            let laptop: AuthResponse = try await api.login("ann").decode()
            let phone = DeviceKeys.generate()
            let desk = DeviceKeys.generate()
            #expect(try await Self.put(api, ann, phone).status == 201)
            #expect(
                try await Self.put(api, Session(user: laptop.user, token: laptop.token), desk).status == 201)
            let deleted = try await api.send(.DELETE, "/v1/me/devices/\(phone.deviceId)", token: ann.token)
            #expect(deleted.status == 204)
            #expect(try await Self.devices(api, of: "ann", as: ann).map(\.id) == [desk.deviceId])
            #expect(try await api.send(.DELETE, "/v1/me/devices/\(phone.deviceId)", token: ann.token).status == 204)
            let changes = try await api.allEvents(ann).filter { $0.type == EventType.deviceChanged }
            #expect(changes.count == 3, "two added and one removed")

            #expect(try await api.send(.DELETE, "/v1/sessions/current", token: laptop.token).status == 204)
            #expect(try await Self.devices(api, of: "ann", as: ann).isEmpty, "logging out removed its device")
        }
    }
}
