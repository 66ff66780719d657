import ChirpModels
import HTTPTypes
import Hummingbird

/// Resolves `Authorization: Bearer <token>` to the logged-in user, or fails with 401.
struct Authenticator: Sendable {
    let services: ServerServices

    func viewer(for request: Request) async throws -> Viewer {
        guard let header = request.headers[.authorization] else { throw APIError.missingToken }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.missingToken }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 256 else { throw APIError.invalidToken }
        let hash = SessionTokens.hash(token)
        guard let session = try await services.storage.session(tokenHash: hash) else { throw APIError.invalidToken }
        guard session.expiresAt > services.now() else { throw APIError.expiredToken }
        return Viewer(id: session.userId, username: session.username, tokenHash: hash)
    }
}
