import ChirpModels
import HTTPTypes
import Hummingbird

/// Resolves `Authorization: Bearer <token>` to the logged-in user, or fails with 401.
///
/// Tokens are never compared as text: the presented token is hashed (SHA-256) and the digest
/// is looked up. How long the lookup takes depends on the digest, which an attacker cannot
/// steer towards a stored one character by character, so the comparison leaks nothing about
/// how much of a guess was right (OWASP API2's timing-safe comparison).
struct Authenticator: Sendable {
    let services: ServerServices

    func viewer(for request: Request) async throws -> Viewer {
        try await viewer(authorization: request.headers[.authorization], queryToken: nil)
    }

    /// The viewer for an `Authorization` header value or, for clients that cannot set headers
    /// (the WebSocket stream), a `token` query item.
    func viewer(authorization header: String?, queryToken: String?) async throws -> Viewer {
        let token: String
        if let header {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.missingToken }
            token = Self.trimmingOptionalWhitespace(parts[1])
        } else if let queryToken {
            token = queryToken
        } else {
            throw APIError.missingToken
        }
        guard !token.isEmpty, token.utf8.count <= 256 else { throw APIError.invalidToken }
        let hash = SessionTokens.hash(token)
        let session: SessionInfo
        if let cached = services.sessions.session(for: hash) {
            session = cached
        } else {
            guard let stored = try await services.storage.session(tokenHash: hash) else { throw APIError.invalidToken }
            services.sessions.store(stored, for: hash)
            session = stored
        }
        guard session.expiresAt > services.now() else { throw APIError.expiredToken }
        return Viewer(id: session.userId, username: session.username, tokenHash: hash)
    }

    /// The text without the spaces and tabs HTTP allows around a value (RFC 9110 §5.6.3).
    static func trimmingOptionalWhitespace(_ text: Substring) -> String {
        let bytes = text.utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }
}
