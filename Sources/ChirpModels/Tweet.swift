/// A public post of at most 280 characters.
public struct Tweet: Sendable, Hashable, Codable {
    public var id: String
    public var clientTweetId: String
    public var author: User
    public var text: String
    public var createdAt: Timestamp

    public init(id: String, clientTweetId: String, author: User, text: String, createdAt: Timestamp) {
        self.id = id
        self.clientTweetId = clientTweetId
        self.author = author
        self.text = text
        self.createdAt = createdAt
    }
}
