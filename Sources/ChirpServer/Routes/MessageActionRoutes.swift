import ChirpModels
import Hummingbird

/// Message actions and search: reactions, edits, unsends, `GET /v1/search/messages`.
struct MessageActionRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let actions = services.messageActions
        let limit = services.configuration.maxBodyBytes
        for (route, remove) in [(APIRoute.addReaction, false), (APIRoute.removeReaction, true)] {
            authenticated.add(route) { _, context in
                try await actions.react(
                    context.viewer, peer: try context.pathParameter("username"), messageId: try context.pathParameter("messageId"),
                    emoji: try context.pathParameter("emoji"), remove: remove)
                return JSONResponse.noContent()
            }
        }
        authenticated.add(.editMessage) { request, context in
            let body = try await JSONResponse.decode(TextBody.self, from: request, limit: limit)
            return try JSONResponse.make(try await actions.edit(
                context.viewer, peer: try context.pathParameter("username"), messageId: try context.pathParameter("messageId"),
                text: body.text))
        }
        authenticated.add(.unsendMessage) { _, context in
            try await actions.unsend(
                context.viewer, peer: try context.pathParameter("username"), messageId: try context.pathParameter("messageId"))
            return JSONResponse.noContent()
        }
        authenticated.add(.searchMessages) { request, context in
            let query = QueryParameters(request: request)
            guard let q = request.uri.queryParameters.get("q") else {
                throw APIError.badParameter("q", "'q' (the words to search for) is required.")
            }
            return try JSONResponse.make(try await actions.search(
                context.viewer, query: q, peer: request.uri.queryParameters.get("peer"), page: try query.page()))
        }
    }
}
