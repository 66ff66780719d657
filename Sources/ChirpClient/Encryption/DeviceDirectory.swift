import ChirpEncryption
import ChirpModels
import ChirpNetworking
import Logging

/// Other users' devices, as sealing and opening need them: each user's current devices
/// (`GET /v1/users/{u}/devices`, asked once per process and again after their
/// `device.changed` or a `devices_changed` answer), keeping only those whose key signature
/// verifies; each user's id; and the identity key of every device of theirs seen here
/// (`known_users`, of which this is the one writer), so that an older message from a device
/// since removed still verifies.
actor DeviceDirectory {
    let api: ChirpAPIClient
    let database: ClientDatabase
    private let logger = Logger(label: "chirp.devices")
    /// Current devices by lowercased username, as fetched by this process.
    private var current: [String: [Device]] = [:]

    init(api: ChirpAPIClient, database: ClientDatabase) {
        self.api = api
        self.database = database
    }

    /// `username`'s current devices whose key signatures verify; fetched when this process has
    /// not fetched them yet (or, with `refresh`, always).
    func devices(of username: String, refresh: Bool = false) async throws -> [Device] {
        let key = username.lowercased()
        if !refresh, let devices = current[key] { return devices }
        let fetched = try await api.send(ChirpEndpoints.UserDevices(of: username))
        return try await learn([username: fetched])[key] ?? []
    }

    /// Takes `devices` (by username) as the users' current devices — a `devices_changed`
    /// answer, or a fetch — keeping those whose key signature verifies; returns them.
    @discardableResult
    func learn(_ devices: [String: [Device]]) async throws -> [String: [Device]] {
        var kept: [String: [Device]] = [:]
        for (username, list) in devices {
            let key = username.lowercased()
            let valid = list.filter { device in
                guard KeySignatureCheck.isValid(device) else {
                    logger.warning(
                        "a device's key signature does not verify; nothing is sealed to it",
                        metadata: ["user": "\(username)", "device": "\(device.id)"])
                    return false
                }
                return true
            }
            current[key] = valid
            kept[key] = valid
            var known = try await database.knownUsers.fetch(id: key) ?? KnownUser(id: key, identityKeys: [:])
            let before = known
            for device in valid where known.identityKeys[device.id] == nil {
                known.identityKeys[device.id] = device.identityKey
            }
            if known != before { try await database.knownUsers.save([known]) }
        }
        return kept
    }

    /// `username` changed their devices (`device.changed`): their list is asked again.
    func forget(_ username: String) {
        current[username.lowercased()] = nil
    }

    /// The identity key of device `deviceId` of `username` (never another user's device):
    /// from the devices seen here, else from their current list asked again.
    func identityKey(of deviceId: String, user username: String) async -> String? {
        let key = username.lowercased()
        if let device = current[key]?.first(where: { $0.id == deviceId }) { return device.identityKey }
        if let known = try? await database.knownUsers.fetch(id: key)?.identityKeys[deviceId] { return known }
        _ = try? await devices(of: username, refresh: true)
        return current[key]?.first { $0.id == deviceId }?.identityKey
    }

    /// `username`'s id (`User.id`), kept once asked.
    func userId(of username: String) async throws -> String {
        let key = username.lowercased()
        var known = try await database.knownUsers.fetch(id: key) ?? KnownUser(id: key, identityKeys: [:])
        if let id = known.userId { return id }
        let user = try await api.send(ChirpEndpoints.GetUser(username))
        known.userId = user.id
        try await database.knownUsers.save([known])
        return user.id
    }
}
