/// One emoji's reactions on a message: `{"emoji", "count", "users"}`, users in the order they
/// reacted.
public struct MessageReaction: Sendable, Hashable, Codable {
    /// One grapheme cluster.
    public var emoji: String
    public var count: Int
    public var users: [String]

    public init(emoji: String, users: [String]) {
        self.emoji = emoji
        self.count = users.count
        self.users = users
    }

    public init(emoji: String, count: Int, users: [String]) {
        self.emoji = emoji
        self.count = count
        self.users = users
    }
}
