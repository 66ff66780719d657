import ChirpEncryption
import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// This installation's device for encrypted conversations: its private keys in
/// `device-keys.json` (`DeviceKeyFile`, mode 0600) in the signed-in user's directory, made on
/// first use and never sent anywhere; its public keys registered with the server
/// (`PUT /v1/me/devices/{id}`); its encryption key rotated every 7 days, the replaced key kept
/// until the event stream has been read past the rotation (`caughtUp(startedAt:)`).
///
/// The one writer of the `this_device` row, which says which public key the server was given
/// and when the current key was made.
actor ThisDevice {
    /// How long an encryption key is used before it is rotated.
    static let rotationInterval: Int64 = 7 * 24 * 3600 * 1000
    /// A replaced key is dropped only after a catch-up that started this long after the
    /// rotation: what was sealed to it just before it was replaced has arrived by then.
    static let dropMargin: Int64 = 60 * 1000

    let file: DeviceKeyFile
    let database: ClientDatabase
    let api: ChirpAPIClient
    /// The name the device is registered under ("chirp on HOST").
    let name: String
    let now: @Sendable () -> Timestamp
    private let logger = Logger(label: "chirp.device")
    private var keys: DeviceKeys?
    /// Registered (or found registered) by this process.
    private var checked = false

    init(
        directory: URL, database: ClientDatabase, api: ChirpAPIClient, name: String = ThisDevice.defaultName(),
        now: @escaping @Sendable () -> Timestamp = { .now() }
    ) {
        file = DeviceKeyFile(directory: directory)
        self.database = database
        self.api = api
        self.name = name
        self.now = now
    }

    /// "chirp on HOST", at most 64 characters.
    static func defaultName() -> String {
        String("chirp on \(ProcessInfo.processInfo.hostName)".prefix(64))
    }

    /// The device's keys, read from the file or made (and saved) when there is none. No
    /// network call.
    func currentKeys() throws -> DeviceKeys {
        if let keys { return keys }
        let loaded: DeviceKeys
        if let stored = try file.load() {
            loaded = stored
        } else {
            loaded = DeviceKeys.generate()
            try file.save(loaded)
        }
        keys = loaded
        return loaded
    }

    /// The keys once the server has this device with the current encryption key: rotates a key
    /// 7 days old first, and registers when the server was not given this key yet (or, with
    /// `force`, in any case: a login registers for its new session). Once per process unless
    /// forced.
    @discardableResult
    func registered(force: Bool = false) async throws -> DeviceKeys {
        var keys = try currentKeys()
        if checked && !force { return keys }
        let time = now()
        var record =
            try await database.thisDevice.fetch(id: ThisDeviceRecord.rowId).flatMap {
                $0.deviceId == keys.deviceId ? $0 : nil
            }
            ?? ThisDeviceRecord(
                id: ThisDeviceRecord.rowId, deviceId: keys.deviceId, name: name,
                encryptionKey: keys.encryptionPublicKey,
                keySince: time, registered: false)
        if time.millisecondsSince1970 - record.keySince.millisecondsSince1970 >= Self.rotationInterval {
            keys.rotate(now: time)
            try file.save(keys)
            self.keys = keys
            record.keySince = time
            record.registered = false
            logger.info("rotated this device's encryption key", metadata: ["device": "\(keys.deviceId)"])
        }
        if force || !record.registered || record.encryptionKey != keys.encryptionPublicKey {
            record.encryptionKey = keys.encryptionPublicKey
            record.name = name
            record.registered = false
            try await database.thisDevice.save([record])
            _ = try await api.send(ChirpEndpoints.PutDevice(keys.deviceId, try keys.request(name: name)))
            record.registered = true
        }
        try await database.thisDevice.save([record])
        checked = true
        return keys
    }

    /// The event stream was read to its end by a catch-up that started at `startedAt`: what
    /// was sealed to a key replaced well before then has been opened, so that key goes.
    func caughtUp(startedAt: Timestamp) throws {
        guard var keys = try? currentKeys(), !keys.retiredKeys.isEmpty else { return }
        let before = Timestamp(millisecondsSince1970: startedAt.millisecondsSince1970 - Self.dropMargin)
        let count = keys.retiredKeys.count
        keys.dropRetired(before: before)
        guard keys.retiredKeys.count != count else { return }
        try file.save(keys)
        self.keys = keys
    }

    /// Removes the device from the server (logging out does it too).
    func unregister() async throws {
        guard let keys = try file.load() else { return }
        _ = try await api.send(ChirpEndpoints.DeleteDevice(keys.deviceId))
    }
}
