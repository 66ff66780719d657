/// A conversation as its owner sees it: the other person (or the group), the newest message
/// (none yet in a group the owner just created or joined), how many messages from the others
/// the owner has not read yet, and the owner's own marks on it (pinned, muted; API.md part 3).
public struct Conversation: Sendable, Hashable, Codable {
    /// The other person of a direct conversation; in a group, `Conversation.noPeer` (absent in JSON).
    public var peer: User
    /// The newest message the owner sees; nil (JSON `null`) only in a group with no message
    /// for them yet.
    public var lastMessage: Message?
    public var unreadCount: Int
    /// `direct` until groups exist (API.md part 3). Absent in JSON: `direct`.
    public var kind: String
    /// A message request the owner has not accepted yet (only in the recipient's view; the
    /// sender sees an ordinary conversation). Absent: false.
    public var request: Bool
    /// The owner pinned it: it comes first in the list. Absent: false.
    public var pinned: Bool
    /// The owner muted it: unread messages still count, clients do not alert. Absent: false.
    public var muted: Bool
    /// The owner declined this request: it left their list (only in the `conversation.updated`
    /// that tells their devices; absent in JSON otherwise).
    public var declined: Bool
    /// The group of a group conversation (`kind` `group`); nil for a direct one.
    public var group: Group?
    /// Only the members' devices can read its messages (API.md part 4); once on, never off.
    /// A group conversation's is its group's.
    public var encrypted: Bool

    /// A conversation with one other person.
    public static let directKind = "direct"
    /// A group conversation.
    public static let groupKind = "group"
    /// What `peer` holds in a group conversation.
    public static let noPeer = User(
        id: "", username: "", displayName: "", createdAt: Timestamp(millisecondsSince1970: 0), followersCount: 0,
        followingCount: 0)

    public init(
        peer: User, lastMessage: Message?, unreadCount: Int, kind: String = Conversation.directKind,
        request: Bool = false,
        pinned: Bool = false, muted: Bool = false, declined: Bool = false, group: Group? = nil, encrypted: Bool = false
    ) {
        self.peer = peer
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
        self.kind = kind
        self.request = request
        self.pinned = pinned
        self.muted = muted
        self.declined = declined
        self.group = group
        self.encrypted = encrypted || group?.encrypted == true
    }

    enum CodingKeys: String, CodingKey {
        case peer, lastMessage, unreadCount, kind, request, pinned, muted, declined, group, encrypted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        peer = try container.decodeIfPresent(User.self, forKey: .peer) ?? Self.noPeer
        lastMessage = try container.decodeIfPresent(Message.self, forKey: .lastMessage)
        unreadCount = try container.decode(Int.self, forKey: .unreadCount)
        kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? Self.directKind
        request = try container.decodeIfPresent(Bool.self, forKey: .request) ?? false
        pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false
        muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false
        declined = try container.decodeIfPresent(Bool.self, forKey: .declined) ?? false
        group = try container.decodeIfPresent(Group.self, forKey: .group)
        encrypted = try container.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let group { try container.encode(group, forKey: .group) } else { try container.encode(peer, forKey: .peer) }
        try container.encode(lastMessage, forKey: .lastMessage)  // explicit null, as API.md shows
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(kind, forKey: .kind)
        try container.encode(request, forKey: .request)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(muted, forKey: .muted)
        if declined { try container.encode(declined, forKey: .declined) }
        try container.encode(encrypted, forKey: .encrypted)
    }
}
