import ChirpDataCenter
import ChirpModels
import ChirpPersistence

/// One row of the conversation list: the peer, the last message, how many of the peer's
/// messages are unread, this user's pin and mute, and whether it is a message request they
/// have not answered (listed apart: `UserSession.requests`). Refreshed from `GET /v1/conversations`
/// and kept current by events; a pin or mute shows here at once (`UserSession.pin`), before
/// the outbox sends it.
public struct ConversationSummary: DataCenterManaged {
    public static let tableName = "conversations"

    /// The peer's username, lowercased, or the group's key (`ConversationKey`).
    public var id: String
    /// The peer's username as registered (a group's key).
    public var peerName: String
    /// The peer's display name (a group's title).
    public var peerDisplayName: String
    public var lastSender: String
    public var lastText: String
    /// The last message's server id as a number (orders the list; 0 when unknown).
    public var lastOrder: Int64
    public var lastAt: String
    public var unreadCount: Int
    /// Orders the pinned rows, the most recently pinned highest; 0 when not pinned.
    public var pinOrder: Int64
    /// Muted: unread messages still count, the apps do not alert for new ones.
    public var muted: Bool
    /// A message request this user has not accepted yet: left out of the conversation list.
    public var request: Bool
    /// Encrypted (API.md part 4): its messages are sealed to the members' devices, and its
    /// texts here are this device's decrypted copies.
    public var encrypted: Bool

    init(
        id: String, peerName: String, peerDisplayName: String, lastSender: String, lastText: String, lastOrder: Int64,
        lastAt: String,
        unreadCount: Int, pinOrder: Int64 = 0, muted: Bool = false, request: Bool = false, encrypted: Bool = false
    ) {
        self.id = id
        self.peerName = peerName
        self.peerDisplayName = peerDisplayName
        self.lastSender = lastSender
        self.lastText = lastText
        self.lastOrder = lastOrder
        self.lastAt = lastAt
        self.unreadCount = unreadCount
        self.pinOrder = pinOrder
        self.muted = muted
        self.request = request
        self.encrypted = encrypted
    }

    /// The last text of an encrypted conversation whose last message this device has not
    /// opened yet (the server's list carries only its envelope).
    public static let sealedText = "🔒 encrypted message"

    /// Pinned: the list shows it first.
    public var pinned: Bool { pinOrder > 0 }

    /// The peer as a list shows it: the username, or for a deleted account its display name
    /// and placeholder (`Deleted account (deleted-17)`); a group's title.
    public var shownName: String {
        if isGroup { return peerDisplayName }
        return Validation.isDeletedAccountName(peerName) ? "\(peerDisplayName) (\(peerName))" : peerName
    }

    /// A group conversation.
    public var isGroup: Bool { ConversationKey.isGroup(id) }

    /// The group's id; nil for a direct conversation.
    public var groupId: String? { ConversationKey.groupId(of: id) }

    /// The key of the conversation `conversation` is: the peer's username lowercased, or the group's key.
    static func key(of conversation: Conversation) -> String {
        conversation.group.map { ConversationKey.group($0.id) } ?? conversation.peer.username.lowercased()
    }

    /// A row from the server's list.
    public init(_ conversation: Conversation) {
        id = Self.key(of: conversation)
        peerName = conversation.group.map { ConversationKey.group($0.id) } ?? conversation.peer.username
        peerDisplayName = conversation.group?.title ?? conversation.peer.displayName
        // A group with no message yet for this user has no last message: empty, as `init(group:)`.
        lastSender = conversation.lastMessage?.sender ?? ""
        lastText = conversation.lastMessage.map { $0.envelope == nil ? $0.text : Self.sealedText } ?? ""
        lastOrder = conversation.lastMessage.flatMap { Int64($0.id) } ?? 0
        lastAt = conversation.lastMessage?.createdAt.rfc3339 ?? ""
        unreadCount = conversation.unreadCount
        pinOrder = conversation.pinned ? 1 : 0
        muted = conversation.muted
        request = conversation.request
        encrypted = conversation.encrypted
    }

    /// A group with no message yet (from its `group.created`).
    init(group: LocalGroup) {
        self.init(
            id: group.key, peerName: group.key, peerDisplayName: group.title, lastSender: "", lastText: "",
            lastOrder: 0,
            lastAt: "", unreadCount: 0, encrypted: group.encrypted)
    }

    /// A follower with no conversation yet: someone this user can message.
    public init(follower: FollowEntry) {
        self.init(
            id: follower.username.lowercased(), peerName: follower.username, peerDisplayName: follower.displayName,
            lastSender: "", lastText: "", lastOrder: 0, lastAt: "", unreadCount: 0)
    }

    /// Whether this row is a follower without messages.
    public var hasMessages: Bool { !lastAt.isEmpty }

    /// A refresh brings the first page of the list (merged by `LocalLedger.merge(conversations:)`),
    /// which starts with the pinned ones, most recently pinned first: they keep that order. A
    /// group with no message yet keeps the place the server gave it (its join mark, which the
    /// list does not carry): just above the next row that has a message.
    public static func records(from response: Page<Conversation>, for request: ChirpEndpoints.ListConversations)
        -> [ConversationSummary]
    {
        let pinned = Int64(response.items.filter(\.pinned).count)
        var rows = response.items.enumerated().map { index, conversation in
            var row = ConversationSummary(conversation)
            if row.pinned { row.pinOrder = pinned - Int64(index) }
            return row
        }
        var below: Int64 = 0
        for index in rows.indices.reversed() {
            if rows[index].hasMessages {
                below = rows[index].lastOrder
            } else if rows[index].isGroup {
                rows[index].lastOrder = below + 1
            }
        }
        return rows
    }

    /// Pinned conversations first, the most recently pinned first, then the newest; requests
    /// left out.
    static var newestFirst: RecordQuery {
        RecordQuery().filter("request", .equal, .integer(0)).order(by: "pinOrder", ascending: false).order(
            by: "lastOrder", ascending: false)
    }

    /// A refresh of the requests stands for every request stored (a request no longer listed
    /// was answered, here or on another device); a refresh of the list, for the rows it holds.
    public static func scope(of request: ChirpEndpoints.ListConversations) -> RecordQuery? {
        request.requests ? RecordQuery().filter("request", .notEqual, .integer(0)) : nil
    }

    /// The requests this user has not answered, the newest first.
    static var requestsNewestFirst: RecordQuery {
        RecordQuery().filter("request", .notEqual, .integer(0)).order(by: "lastOrder", ascending: false)
    }

    /// The pinned rows.
    static var pinnedRows: RecordQuery { RecordQuery().filter("pinOrder", .greater, 0) }
}
