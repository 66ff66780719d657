import Foundation
import JWTKit

/// The claims of a VAPID token (RFC 8292 §2): the push service's origin (`aud`), an expiry at
/// most 24 hours ahead (`exp`), and a contact for the push service's operator (`sub`).
public struct VAPIDClaims: JWTPayload, Equatable {
    /// The longest a push service accepts a token for.
    public static let maximumLifetime: TimeInterval = 24 * 60 * 60

    /// The push service's origin: `scheme://host[:port]`.
    public var aud: AudienceClaim
    /// When the token ends.
    public var exp: ExpirationClaim
    /// A `mailto:` or `https:` URL where the push service can reach the sender.
    public var sub: SubjectClaim

    /// The claims as given.
    public init(audience: String, expiresAt: Date, subject: String) {
        self.aud = AudienceClaim(value: audience)
        self.exp = ExpirationClaim(value: expiresAt)
        self.sub = SubjectClaim(value: subject)
    }

    /// What jwt-kit checks once the signature holds: the token has not expired.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }

    /// What a push service checks besides the signature (RFC 8292 §2): `aud` is its own origin,
    /// `exp` is ahead but not more than 24 hours, and `sub` is a `mailto:` or `https:` URL.
    public func check(audience: String, now: Date = Date()) throws(VAPIDClaimsError) {
        guard aud.value == [audience] else { throw .wrongAudience(aud.value) }
        guard exp.value > now else { throw .expired }
        guard exp.value.timeIntervalSince(now) <= Self.maximumLifetime else { throw .expiresTooLate }
        guard sub.value.hasPrefix("mailto:") || sub.value.hasPrefix("https://") else {
            throw .badSubject(sub.value)
        }
    }
}

/// Which VAPID claim a push service would refuse.
public enum VAPIDClaimsError: Error, Equatable {
    /// `aud` is not the push service's origin.
    case wrongAudience([String])
    /// `exp` has passed.
    case expired
    /// `exp` is more than 24 hours ahead.
    case expiresTooLate
    /// `sub` is neither a `mailto:` nor an `https:` URL.
    case badSubject(String)
}
