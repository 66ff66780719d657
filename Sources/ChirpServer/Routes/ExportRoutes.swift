import ChirpModels
import Hummingbird

/// The data export: `POST /v1/me/export` prepares the viewer's archive (202 with its status),
/// `GET /v1/me/export` downloads it (a ustar archive), or answers 202 with the status and
/// `Retry-After` while it is being written.
struct ExportRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let exports = services.exports
        let fileIO = FileIO()
        authenticated.add(.prepareExport) { _, context in
            try JSONResponse.make(
                try await MediaRoutes.storageErrors { try await exports.prepare(context.viewer) }, status: .accepted)
        }
        authenticated.add(.downloadExport) { _, context in
            switch try await MediaRoutes.storageErrors({ try await exports.download(context.viewer) }) {
            case .pending(let status):
                var response = try JSONResponse.make(status, status: .accepted)
                response.headers[.retryAfter] = "2"
                return response
            case .ready(let path, let size):
                var headers = HTTPFields()
                headers[.contentType] = "application/x-tar"
                headers[.contentLength] = String(size)
                headers[.contentDisposition] = "attachment; filename=\"chirp-export-\(context.viewer.username).tar\""
                headers[.cacheControl] = "no-store"
                let body = try await MediaRoutes.fileBody { try await fileIO.loadFile(path: path, context: context) }
                return Response(status: .ok, headers: headers, body: body)
            }
        }
    }
}
