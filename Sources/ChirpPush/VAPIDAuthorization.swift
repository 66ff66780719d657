import Foundation

/// The `Authorization` header of a push request under VAPID (RFC 8292 §3):
/// `vapid t=<JWT>, k=<public key, base64url>`.
public struct VAPIDAuthorization: Sendable, Equatable {
    /// The signed JWT (ES256).
    public var token: String
    /// The signer's public key: base64url of the uncompressed P-256 point.
    public var publicKey: String

    /// The header's two parts.
    public init(token: String, publicKey: String) {
        self.token = token
        self.publicKey = publicKey
    }

    /// The parts of a header value; nil when it is not the `vapid` scheme with both `t` and `k`.
    public init?(headerValue: String) {
        let scheme = "vapid "
        guard headerValue.lowercased().hasPrefix(scheme) else { return nil }
        var token: String?
        var publicKey: String?
        for parameter in headerValue.dropFirst(scheme.count).split(separator: ",") {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let value = String(pair[1].trimmingCharacters(in: .whitespaces))
            switch pair[0].trimmingCharacters(in: .whitespaces).lowercased() {
            case "t": token = value
            case "k": publicKey = value
            default: continue
            }
        }
        guard let token, let publicKey else { return nil }
        self.init(token: token, publicKey: publicKey)
    }

    /// The header value.
    public var headerValue: String { "vapid t=\(token), k=\(publicKey)" }
}
