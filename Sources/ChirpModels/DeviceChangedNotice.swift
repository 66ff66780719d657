/// The data of a `device.changed` event: `user` added, rotated or removed a device, so what is
/// sealed to them from now on must use their current list (`GET /v1/users/{username}/devices`).
public struct DeviceChangedNotice: Sendable, Hashable, Codable {
    public var user: String

    public init(user: String) { self.user = user }
}
