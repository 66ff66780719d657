import ChirpModels
import Hummingbird

/// Turning encryption on: `PUT /v1/conversations/{username}/encryption` and
/// `PUT /v1/groups/{id}/encryption` (API.md part 4).
struct EncryptionRoutes {
    let services: ServerServices

    func register(authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let encryption = services.encryption
        authenticated.add(.encryptConversation) { _, context in
            try await encryption.encryptDirect(context.viewer, peer: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        authenticated.add(.encryptGroup) { _, context in
            try await encryption.encryptGroup(context.viewer, id: try context.pathParameter("id"))
            return JSONResponse.noContent()
        }
    }
}
