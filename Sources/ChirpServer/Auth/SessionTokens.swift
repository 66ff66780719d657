import Crypto
import Foundation

/// Session tokens: 256 random bits, shown to the client once as base64url text and stored only
/// as their SHA-256 digest, so a copy of the database does not let anyone log in.
enum SessionTokens {
    /// A new random token.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The digest under which a token is stored and looked up.
    static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }
}
