import ChirpModels
import Hummingbird

/// Message actions and search: reactions, edits, unsends, `GET /v1/search/messages`.
struct MessageActionRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let actions = services.messageActions
        let limit = services.configuration.maxBodyBytes
        // The direct routes name the peer, the group routes the group, then the same message.
        let families:
            [(
                reactions: (APIRoute, APIRoute), edit: APIRoute, unsend: APIRoute,
                target: @Sendable (AuthenticatedRequestContext) throws -> MessageActionTarget
            )] = [
                (
                    (.addReaction, .removeReaction), .editMessage, .unsendMessage,
                    { .peer(try $0.pathParameter("username")) }
                ),
                (
                    (.addGroupReaction, .removeGroupReaction), .editGroupMessage, .unsendGroupMessage,
                    { .group(try $0.pathParameter("id")) }
                ),
            ]
        for family in families {
            let target = family.target
            // A group edit's envelope names every member's devices (as its send's).
            let editLimit =
                family.edit == .editGroupMessage ? services.configuration.maxGroupMessageBodyBytes : limit
            for (route, remove) in [(family.reactions.0, false), (family.reactions.1, true)] {
                authenticated.add(route) { _, context in
                    try await actions.react(
                        context.viewer, in: try target(context), messageId: try context.pathParameter("messageId"),
                        emoji: try context.pathParameter("emoji"), remove: remove)
                    return JSONResponse.noContent()
                }
            }
            authenticated.add(family.edit) { request, context in
                let body = try await JSONResponse.decode(EditMessageRequest.self, from: request, limit: editLimit)
                return try JSONResponse.make(
                    try await actions.edit(
                        context.viewer, in: try target(context), messageId: try context.pathParameter("messageId"),
                        text: body.text ?? "", envelope: body.envelope))
            }
            authenticated.add(family.unsend) { _, context in
                try await actions.unsend(
                    context.viewer, in: try target(context), messageId: try context.pathParameter("messageId"))
                return JSONResponse.noContent()
            }
        }
        authenticated.add(.searchMessages) { request, context in
            let query = QueryParameters(request: request)
            guard let q = request.uri.queryParameters.get("q") else {
                throw APIError.badParameter("q", "'q' (the words to search for) is required.")
            }
            return try JSONResponse.make(
                try await actions.search(
                    context.viewer, query: q, peer: request.uri.queryParameters.get("peer"),
                    group: request.uri.queryParameters.get("group"),
                    page: try query.page()))
        }
    }
}
