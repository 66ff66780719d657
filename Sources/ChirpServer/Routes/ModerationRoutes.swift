import ChirpModels
import Hummingbird

/// The operators' routes under `/v1/admin` (`ModerationService`). Each first makes sure the
/// viewer is an operator (403 `not_operator` to everyone else, before anything it sent is
/// looked at).
struct ModerationRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let moderation = services.moderation
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.adminReports) { request, context in
            _ = try await moderation.requireOperator(context.viewer)
            let resolved: Bool
            switch request.uri.queryParameters.get("status") ?? ModerationReport.open {
            case ModerationReport.open: resolved = false
            case ModerationReport.resolved: resolved = true
            default: throw APIError.badParameter("status", "'status' must be open or resolved.")
            }
            return try JSONResponse.make(
                try await moderation.reports(resolved: resolved, page: try QueryParameters(request: request).page()))
        }
        authenticated.add(.adminResolveReport) { request, context in
            let actor = try await moderation.requireOperator(context.viewer)
            let body = try await JSONResponse.decode(ResolveReportRequest.self, from: request, limit: limit)
            return try JSONResponse.make(
                try await moderation.resolve(reportId: try context.pathParameter("id"), body, by: actor))
        }
        authenticated.add(.adminSuspend) { _, context in
            let actor = try await moderation.requireOperator(context.viewer)
            try await moderation.setSuspended(username: try context.pathParameter("username"), true, by: actor)
            return JSONResponse.noContent()
        }
        authenticated.add(.adminUnsuspend) { _, context in
            let actor = try await moderation.requireOperator(context.viewer)
            try await moderation.setSuspended(username: try context.pathParameter("username"), false, by: actor)
            return JSONResponse.noContent()
        }
        authenticated.add(.adminRemoveMessage) { _, context in
            let actor = try await moderation.requireOperator(context.viewer)
            try await moderation.takeDown(messageId: try context.pathParameter("messageId"), by: actor)
            return JSONResponse.noContent()
        }
        authenticated.add(.adminStats) { _, context in
            _ = try await moderation.requireOperator(context.viewer)
            return try JSONResponse.make(try await moderation.figures())
        }
        authenticated.add(.adminAudit) { request, context in
            _ = try await moderation.requireOperator(context.viewer)
            return try JSONResponse.make(try await moderation.audit(page: try QueryParameters(request: request).page()))
        }
    }
}
