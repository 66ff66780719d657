import ChirpModels
import Hummingbird

/// Pinned and muted conversations: `PUT`/`DELETE /v1/conversations/{username}/pin` and
/// `…/mute`, beside the other conversation routes (`MessageRoutes`).
struct ConversationMarkRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let conversations = services.conversations
        let routes: [(APIRoute, ConversationMarkChange)] = [
            (.pinConversation, .pin), (.unpinConversation, .unpin), (.muteConversation, .mute),
            (.unmuteConversation, .unmute),
        ]
        for (route, change) in routes {
            authenticated.add(route) { _, context in
                try await conversations.mark(context.viewer, peer: try context.pathParameter("username"), change)
                return JSONResponse.noContent()
            }
        }
    }
}
