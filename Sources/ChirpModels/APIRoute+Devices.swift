/// Devices for encrypted conversations (API.md part 4, "Devices"): the viewer's own, and
/// anyone's list of public keys.
extension APIRoute {
    public static let putDevice = APIRoute(.put, "/v1/me/devices/{deviceId}")
    public static let deleteDevice = APIRoute(.delete, "/v1/me/devices/{deviceId}")
    public static let userDevices = APIRoute(.get, "/v1/users/{username}/devices")

    /// The device routes, in `all`.
    public static let devices: [APIRoute] = [putDevice, deleteDevice, userDevices]
}
