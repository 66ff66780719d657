import Crypto
import Foundation

/// Session tokens: 256 random bits, shown to the client once as base64url text and stored only
/// as their SHA-256 digest, so a copy of the database does not let anyone log in.
enum SessionTokens {
    /// A new random token. It never starts with `-`, so `--token VALUE` on a command line is
    /// never mistaken for an option (one draw in 64 is drawn again; the token keeps 255.9 bits).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let token = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            if !token.hasPrefix("-") { return token }
        }
    }

    /// A session's public id: 96 random bits as 24 hex digits, unrelated to its token.
    static func publicId() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for _ in 0..<12 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest under which a token is stored and looked up.
    static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }
}
