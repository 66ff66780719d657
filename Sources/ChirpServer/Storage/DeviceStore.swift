import ChirpModels

/// Devices for encrypted conversations (issue 55): each account's devices and their public
/// keys. Storage keeps the facts; `DeviceService` checks keys and decides.
protocol DeviceStore: Sendable {
    /// Stores the device `new.id` for its account: a new one (unless the account already has
    /// `limit`), or the same device again with a new name or encryption key. A device id
    /// already registered with another identity key, or by another account, is refused.
    /// A new device, or a new encryption key, appends `device.changed` with data `notice` to
    /// the streams of the users who seal to the account (`DeviceSQL.watchers`).
    func putDevice(_ new: NewDevice, limit: Int, notice: String) async throws -> DevicePut

    /// The devices of the user with that username key, oldest first; nil when there is no
    /// such user.
    func devices(usernameKey: String) async throws -> [Device]?

    /// The current devices of the viewer and the user `peerKey` names, by username (a user
    /// with none is listed empty); nil when there is no such user.
    func directDevices(viewer: Int64, peerKey: String) async throws -> [String: [Device]]?

    /// The current devices of group `groupId`'s current members, by username (a member with
    /// none is listed empty); nil unless the viewer is a current member.
    func groupDevices(groupId: Int64, viewer: Int64) async throws -> [String: [Device]]?

    /// Deletes the viewer's device with that id (false when there is none), appending
    /// `device.changed` with data `notice` as `putDevice` does.
    func deleteDevice(userId: Int64, deviceId: String, at: Timestamp, notice: String) async throws
        -> WriteOutcome<Bool>
}

/// A device as its client registers it, from one session of an account.
struct NewDevice: Sendable, Equatable {
    var userId: Int64
    /// The token hash of the session that registered it: the device ends with that session.
    var sessionHash: [UInt8]
    var id: String
    var request: DeviceRequest
    var at: Timestamp
}

/// What storing a device did.
enum DevicePut: Sendable, Equatable {
    /// A new device; `appended` tells the users who must seal to it.
    case created(Device, appended: [AppendedEvent])
    /// The same device again: `appended` is empty unless its encryption key changed.
    case replaced(Device, appended: [AppendedEvent])
    /// The id is registered with another identity key, or by another account.
    case identityKeyChanged
    /// The account has as many devices as it may.
    case tooMany
}
