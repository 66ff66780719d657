import Foundation
import JWTKit

/// Signs VAPID tokens (RFC 8292) with the server's key through jwt-kit (ES256), and keeps each
/// push service's token until it nears its end: one signature per push service every few hours.
public actor VAPIDSigner {
    /// How long a token lasts: RFC 8292 allows up to 24 hours.
    public static let tokenLifetime: TimeInterval = 12 * 60 * 60
    /// A kept token is signed again once less than this is left of it.
    public static let renewalMargin: TimeInterval = 60 * 60

    /// The key that signs.
    public nonisolated let key: VAPIDKey
    /// The contact the push services see (`sub`): a `mailto:` or `https:` URL.
    public nonisolated let subject: String
    private let now: @Sendable () -> Date
    private var keys: JWTKeyCollection?
    private var kept: [String: (authorization: VAPIDAuthorization, expiresAt: Date)] = [:]

    /// A signer with `key` and the `subject` contact (`mailto:` or `https:`); `now` is the clock.
    public init(key: VAPIDKey, subject: String, now: @escaping @Sendable () -> Date = { Date() }) throws {
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://") else {
            throw VAPIDClaimsError.badSubject(subject)
        }
        self.key = key
        self.subject = subject
        self.now = now
    }

    /// The `Authorization` header for a push to `endpoint`: the kept token for its origin, or a
    /// new one.
    public func authorization(for endpoint: URL) async throws -> VAPIDAuthorization {
        let audience = try PushEndpoint.origin(of: endpoint)
        let now = now()
        if let kept = kept[audience], kept.expiresAt.timeIntervalSince(now) > Self.renewalMargin {
            return kept.authorization
        }
        let expiresAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + Self.tokenLifetime).rounded(.down))
        let claims = VAPIDClaims(audience: audience, expiresAt: expiresAt, subject: subject)
        let token = try await signingKeys().sign(claims)
        let authorization = VAPIDAuthorization(token: token, publicKey: key.publicKeyBase64URL)
        kept[audience] = (authorization, expiresAt)
        return authorization
    }

    private func signingKeys() async throws -> JWTKeyCollection {
        if let keys { return keys }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .integerSecondsSince1970
        let made = JWTKeyCollection(defaultJWTSerializer: DefaultJWTSerializer(jsonEncoder: encoder))
        await made.add(ecdsa: try ES256PrivateKey(backing: key.privateKey))
        keys = made
        return made
    }
}
