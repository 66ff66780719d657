import ChirpModels
import Hummingbird

/// Devices for encrypted conversations: `/v1/me/devices/{deviceId}` and
/// `/v1/users/{username}/devices` (API.md part 4).
struct DeviceRoutes {
    let services: ServerServices

    func register(authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let devices = services.devices
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.putDevice) { request, context in
            let body = try await JSONResponse.decode(DeviceRequest.self, from: request, limit: limit)
            let (device, created) = try await devices.put(
                context.viewer, id: try context.pathParameter("deviceId"), body)
            return try JSONResponse.make(device, status: created ? .created : .ok)
        }
        authenticated.add(.deleteDevice) { _, context in
            try await devices.delete(context.viewer, id: try context.pathParameter("deviceId"))
            return JSONResponse.noContent()
        }
        authenticated.add(.userDevices) { _, context in
            try JSONResponse.make(try await devices.devices(of: try context.pathParameter("username")))
        }
    }
}
