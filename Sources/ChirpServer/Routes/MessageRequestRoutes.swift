import ChirpModels
import Hummingbird

/// Message requests: `GET`/`PATCH /v1/me/settings`, `POST /v1/conversations/{username}/accept`
/// and `DELETE /v1/conversations/{username}` (declines); the list of requests is
/// `GET /v1/conversations?requests=true` (`MessageRoutes`).
struct MessageRequestRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let settings = services.settings
        let conversations = services.conversations
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.settings) { _, context in
            try JSONResponse.make(try await settings.settings(context.viewer))
        }
        authenticated.add(.updateSettings) { request, context in
            let update = try await JSONResponse.decode(SettingsUpdate.self, from: request, limit: limit)
            return try JSONResponse.make(try await settings.update(context.viewer, update))
        }
        for (route, answer) in [(APIRoute.acceptRequest, RequestAnswer.accept), (.declineRequest, .decline)] {
            authenticated.add(route) { _, context in
                try await conversations.answer(context.viewer, peer: try context.pathParameter("username"), answer)
                return JSONResponse.noContent()
            }
        }
    }
}
