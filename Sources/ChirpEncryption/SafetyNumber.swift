import Crypto
import Foundation

/// The number two people of a direct conversation compare (aloud, or side by side) to know that
/// no one stands between their devices: 60 digits from both users' identity keys, the same on
/// both sides.
///
/// For each user, F = SHA-512 over `chirp-safety-v1`, 0x00, the username (UTF-8), 0x00 and the
/// raw identity public keys of all the user's current devices sorted by their base64url text;
/// its first 30 bytes as six 5-byte big-endian numbers, each mod 100000 as 5 digits. The user
/// whose username sorts first (byte order) comes first.
public struct SafetyNumber: Sendable, Hashable, CustomStringConvertible {
    /// The 60 digits.
    public let digits: String

    /// The safety number of `first` and `second`, in either order: each a username and the
    /// identity keys (base64url, as `Device.identityKey`) of all that user's current devices.
    public init(
        _ first: (username: String, identityKeys: [String]), _ second: (username: String, identityKeys: [String])
    ) throws(SafetyNumberError) {
        let firstDigits = try Self.digits(username: first.username, identityKeys: first.identityKeys)
        let secondDigits = try Self.digits(username: second.username, identityKeys: second.identityKeys)
        let firstComesFirst = !second.username.utf8.lexicographicallyPrecedes(first.username.utf8)
        digits = firstComesFirst ? firstDigits + secondDigits : secondDigits + firstDigits
    }

    /// The digits as 12 groups of 5 separated by spaces.
    public var formatted: String {
        stride(from: 0, to: digits.count, by: 5).map { start in
            let from = digits.index(digits.startIndex, offsetBy: start)
            return String(digits[from..<digits.index(from, offsetBy: 5)])
        }.joined(separator: " ")
    }

    public var description: String { formatted }

    /// One user's 30 digits.
    public static func digits(username: String, identityKeys: [String]) throws(SafetyNumberError) -> String {
        var input = Data("chirp-safety-v1".utf8)
        input.append(0)
        input.append(contentsOf: username.utf8)
        input.append(0)
        // base64url text is ASCII: byte order is code-unit order in any language.
        for key in identityKeys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let raw = Base64URL.decode(key, count: 32) else { throw .malformedIdentityKey(key) }
            input.append(raw)
        }
        let fingerprint = Array(SHA512.hash(data: input))
        var out = ""
        for chunk in 0..<6 {
            let value = fingerprint[chunk * 5..<chunk * 5 + 5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let text = String(value % 100_000)
            out += String(repeating: "0", count: 5 - text.count) + text
        }
        return out
    }
}

/// Why a safety number could not be computed.
public enum SafetyNumberError: Error, Equatable, Sendable {
    /// An identity key is not 32 bytes of base64url.
    case malformedIdentityKey(String)
}
