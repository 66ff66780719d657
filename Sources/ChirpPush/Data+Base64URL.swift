import Foundation

extension Data {
    /// The bytes in base64url without padding (RFC 4648 §5), as Web Push writes keys, secrets
    /// and the VAPID token.
    package func base64URLEncodedString() -> String {
        var text = base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of base64url text, padded or not; nil when it is not base64url.
    package init?(base64URLEncoded text: String) {
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard.append("=") }
        self.init(base64Encoded: standard)
    }
}
