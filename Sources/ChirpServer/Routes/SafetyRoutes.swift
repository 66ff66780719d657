import ChirpModels
import Hummingbird

/// Safety: block, unblock, the viewer's blocks, and reports.
struct SafetyRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let safety = services.safety
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.block) { _, context in
            try await safety.block(context.viewer, username: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        authenticated.add(.unblock) { _, context in
            try await safety.unblock(context.viewer, username: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        authenticated.add(.blocks) { request, context in
            try JSONResponse.make(
                try await safety.blocks(context.viewer, page: try QueryParameters(request: request).page()))
        }
        authenticated.add(.report) { request, context in
            let body = try await JSONResponse.decode(ReportRequest.self, from: request, limit: limit)
            return try JSONResponse.make(try await safety.report(context.viewer, body), status: .accepted)
        }
    }
}
