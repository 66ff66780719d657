/// A conversation as its owner sees it: the other person, the newest message, and how many
/// messages from the peer the owner has not read yet.
public struct Conversation: Sendable, Hashable, Codable {
    public var peer: User
    public var lastMessage: Message
    public var unreadCount: Int

    public init(peer: User, lastMessage: Message, unreadCount: Int) {
        self.peer = peer
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
    }
}
