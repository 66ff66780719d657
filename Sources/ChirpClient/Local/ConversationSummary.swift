import ChirpDataCenter
import ChirpModels
import ChirpPersistence

/// One row of the conversation list: the peer, the last message and how many of the peer's
/// messages are unread. Refreshed from `GET /v1/conversations` and kept current by events.
public struct ConversationSummary: DataCenterManaged {
    public static let tableName = "conversations"

    /// The peer's username, lowercased.
    public var id: String
    /// The peer's username as registered.
    public var peerName: String
    public var peerDisplayName: String
    public var lastSender: String
    public var lastText: String
    /// The last message's server id as a number (orders the list; 0 when unknown).
    public var lastOrder: Int64
    public var lastAt: String
    public var unreadCount: Int

    init(id: String, peerName: String, peerDisplayName: String, lastSender: String, lastText: String, lastOrder: Int64, lastAt: String, unreadCount: Int) {
        self.id = id
        self.peerName = peerName
        self.peerDisplayName = peerDisplayName
        self.lastSender = lastSender
        self.lastText = lastText
        self.lastOrder = lastOrder
        self.lastAt = lastAt
        self.unreadCount = unreadCount
    }

    /// The peer as a list shows it: the username, or for a deleted account its display name
    /// and placeholder (`Deleted account (deleted-17)`).
    public var shownName: String {
        Validation.isDeletedAccountName(peerName) ? "\(peerDisplayName) (\(peerName))" : peerName
    }

    /// A row from the server's list.
    public init(_ conversation: Conversation) {
        id = conversation.peer.username.lowercased()
        peerName = conversation.peer.username
        peerDisplayName = conversation.peer.displayName
        lastSender = conversation.lastMessage.sender
        lastText = conversation.lastMessage.text
        lastOrder = Int64(conversation.lastMessage.id) ?? 0
        lastAt = conversation.lastMessage.createdAt.rfc3339
        unreadCount = conversation.unreadCount
    }

    /// A follower with no conversation yet: someone this user can message.
    public init(follower: FollowEntry) {
        self.init(id: follower.username.lowercased(), peerName: follower.username, peerDisplayName: follower.displayName,
                  lastSender: "", lastText: "", lastOrder: 0, lastAt: "", unreadCount: 0)
    }

    /// Whether this row is a follower without messages.
    public var hasMessages: Bool { !lastAt.isEmpty }

    /// A refresh brings the first page of the list (merged by `LocalLedger.merge(conversations:)`).
    public static func records(from response: Page<Conversation>, for request: ChirpEndpoints.ListConversations) -> [ConversationSummary] {
        response.items.map(ConversationSummary.init)
    }

    /// Newest conversation first.
    static var newestFirst: RecordQuery { RecordQuery().order(by: "lastOrder", ascending: false) }
}
