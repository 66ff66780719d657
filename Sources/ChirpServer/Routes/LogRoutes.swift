import ChirpModels
import Hummingbird

/// `POST /v1/logs`: clients report their errors. At most 500 entries and 64 KiB per batch; a
/// batch id seen before from the same user is acknowledged again without storing anything.
struct LogRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let logs = services.logs
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.logs) { request, context in
            let body = try await JSONResponse.decode(LogUpload.self, from: request, limit: limit)
            return try JSONResponse.make(try await logs.upload(context.viewer, body), status: .accepted)
        }
    }
}
