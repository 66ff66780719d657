import ChirpCommandSupport
import ChirpEncryption
import ChirpModels
import Foundation

/// A bench account's one device for encrypted conversations, made as the kit's `ThisDevice`
/// makes one: keys generated here (kept in memory only), registered with
/// `PUT /v1/me/devices/{id}`, and the `Device` the server answered, which the other members
/// seal to.
struct BenchDevice: Sendable {
    let account: BenchAccount
    let keys: DeviceKeys
    /// The public half, as `GET /v1/users/{username}/devices` lists it.
    let device: Device

    /// Makes keys for `account` and registers them (201).
    static func register(_ account: BenchAccount, through client: LoadClient) async throws -> BenchDevice {
        let keys = DeviceKeys.generate()
        let body = try JSONEncoder().encode(try keys.request(name: "chirp bench"))
        let reply = try await client.request(
            .PUT, "/v1/me/devices/\(keys.deviceId)", token: account.token, json: String(decoding: body, as: UTF8.self))
        guard reply.status == 201, let device = try? JSONDecoder().decode(Device.self, from: Data(reply.body.utf8))
        else {
            throw CommandFailure(
                "registering \(account.name)'s device failed: \(reply.status) \(reply.body.prefix(200))")
        }
        return BenchDevice(account: account, keys: keys, device: device)
    }

    /// Keys and their `Device`, made here and registered nowhere: a sealer or an opener timed
    /// apart from any server.
    static func local() throws -> BenchDevice {
        let keys = DeviceKeys.generate()
        let request = try keys.request(name: "chirp bench")
        return BenchDevice(
            account: BenchAccount(name: "", token: ""), keys: keys,
            device: Device(
                id: keys.deviceId, name: request.name, identityKey: request.identityKey,
                encryptionKey: request.encryptionKey, keySignature: request.keySignature, createdAt: .now()))
    }

    /// A device for each of `accounts`, in their order, eight registrations at a time.
    static func register(_ accounts: [BenchAccount], through client: LoadClient) async throws -> [BenchDevice] {
        try await InFlight.map(accounts, atOnce: 8) { try await register($0, through: client) }
    }
}
