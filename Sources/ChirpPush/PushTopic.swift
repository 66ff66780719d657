import Crypto
import Foundation

/// A push message's `Topic` (RFC 8030 §5.4): at most 32 characters of the URL-safe base64
/// alphabet. A push service keeps only the newest undelivered message of a topic, so a burst in
/// one conversation reaches a sleeping device as one push.
public struct PushTopic: Sendable, Hashable, CustomStringConvertible {
    /// The longest topic RFC 8030 allows.
    public static let maximumLength = 32

    /// The header value.
    public let value: String

    /// A topic as given; nil when it is empty, longer than 32 characters or outside the URL-safe
    /// base64 alphabet.
    public init?(_ value: String) {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard !value.isEmpty, value.count <= Self.maximumLength, value.allSatisfy(alphabet.contains) else {
            return nil
        }
        self.value = value
    }

    /// The topic of a conversation: its id's SHA-256, base64url, cut to 32 characters. It names
    /// the conversation without telling a push service which one it is.
    public init(conversation id: String) {
        let digest = Data(SHA256.hash(data: Data(id.utf8))).base64URLEncodedString()
        self.value = String(digest.prefix(Self.maximumLength))
    }

    public var description: String { value }
}
