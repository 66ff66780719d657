/// One entry of a user's event stream: `{"seq", "type", "createdAt", "data"}`.
///
/// Stored events have `seq` 1, 2, 3 … per user, with no gap; live-only events (`typing`) have
/// `seq == nil`.
public struct Event: Sendable, Hashable, Codable {
    public var seq: Int64?
    public var createdAt: Timestamp
    public var payload: EventPayload

    /// The wire name of the event's type, such as `message.created`.
    public var type: String { payload.type }

    public init(seq: Int64?, createdAt: Timestamp, payload: EventPayload) {
        self.seq = seq
        self.createdAt = createdAt
        self.payload = payload
    }

    enum CodingKeys: String, CodingKey { case seq, type, createdAt, data }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decodeIfPresent(Int64.self, forKey: .seq)
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case EventType.messageCreated:
            payload = .messageCreated(try container.decode(Message.self, forKey: .data))
        case EventType.messageUpdated:
            payload = .messageUpdated(try container.decode(Message.self, forKey: .data))
        case EventType.messageDeleted:
            payload = .messageDeleted(try container.decode(MessageDeletedNotice.self, forKey: .data))
        case EventType.messageRead:
            payload = .messageRead(try container.decode(ReadReceipt.self, forKey: .data))
        case EventType.typing:
            payload = .typing(try container.decode(TypingNotice.self, forKey: .data))
        case EventType.followCreated:
            payload = .followCreated(try container.decode(FollowNotice.self, forKey: .data))
        case EventType.tweetCreated:
            payload = .tweetCreated(try container.decode(Tweet.self, forKey: .data))
        case EventType.blockCreated:
            payload = .blockCreated(try container.decode(BlockNotice.self, forKey: .data))
        case EventType.blockDeleted:
            payload = .blockDeleted(try container.decode(BlockNotice.self, forKey: .data))
        case EventType.userDeleted:
            payload = .userDeleted(try container.decode(UserDeletedNotice.self, forKey: .data))
        case EventType.conversationUpdated:
            payload = .conversationUpdated(try container.decode(Conversation.self, forKey: .data))
        case EventType.groupCreated:
            payload = .groupCreated(try container.decode(Group.self, forKey: .data))
        case EventType.groupUpdated:
            payload = .groupUpdated(try container.decode(Group.self, forKey: .data))
        case EventType.groupRemoved:
            payload = .groupRemoved(try container.decode(GroupRemovedNotice.self, forKey: .data))
        case EventType.eventsPruned:
            payload = .eventsPruned(try container.decode(EventsPrunedNotice.self, forKey: .data))
        case EventType.deviceChanged:
            payload = .deviceChanged(try container.decode(DeviceChangedNotice.self, forKey: .data))
        default:
            payload = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(type, forKey: .type)
        try container.encode(createdAt, forKey: .createdAt)
        switch payload {
        case .messageCreated(let value): try container.encode(value, forKey: .data)
        case .messageUpdated(let value): try container.encode(value, forKey: .data)
        case .messageDeleted(let value): try container.encode(value, forKey: .data)
        case .messageRead(let value): try container.encode(value, forKey: .data)
        case .typing(let value): try container.encode(value, forKey: .data)
        case .followCreated(let value): try container.encode(value, forKey: .data)
        case .tweetCreated(let value): try container.encode(value, forKey: .data)
        case .blockCreated(let value), .blockDeleted(let value): try container.encode(value, forKey: .data)
        case .userDeleted(let value): try container.encode(value, forKey: .data)
        case .conversationUpdated(let value): try container.encode(value, forKey: .data)
        case .groupCreated(let value), .groupUpdated(let value): try container.encode(value, forKey: .data)
        case .groupRemoved(let value): try container.encode(value, forKey: .data)
        case .deviceChanged(let value): try container.encode(value, forKey: .data)
        case .eventsPruned(let value): try container.encode(value, forKey: .data)
        case .unknown: try container.encode([String: String](), forKey: .data)
        }
    }
}

/// The wire names of event types.
public enum EventType {
    public static let messageCreated = "message.created"
    public static let messageUpdated = "message.updated"
    public static let messageDeleted = "message.deleted"
    public static let messageRead = "message.read"
    public static let typing = "typing"
    public static let followCreated = "follow.created"
    public static let tweetCreated = "tweet.created"
    public static let blockCreated = "block.created"
    public static let blockDeleted = "block.deleted"
    public static let userDeleted = "user.deleted"
    public static let conversationUpdated = "conversation.updated"
    public static let groupCreated = "group.created"
    public static let groupUpdated = "group.updated"
    public static let groupRemoved = "group.removed"
    /// Live only (`"seq": null`), first in an answer: events after the client's `since` were
    /// older than the server's event retention and are gone; refresh the lists.
    public static let eventsPruned = "events.pruned"
    public static let deviceChanged = "device.changed"
}

/// What an event carries, by type.
public enum EventPayload: Sendable, Hashable {
    case messageCreated(Message)
    /// A message after an edit or a change of its reactions.
    case messageUpdated(Message)
    /// A message was unsent; it is a tombstone for both people.
    case messageDeleted(MessageDeletedNotice)
    case messageRead(ReadReceipt)
    case typing(TypingNotice)
    case followCreated(FollowNotice)
    case tweetCreated(Tweet)
    /// The receiver (on another of their devices) blocked `username`.
    case blockCreated(BlockNotice)
    /// The receiver unblocked `username`.
    case blockDeleted(BlockNotice)
    /// Someone the receiver had a conversation with, or who followed them, deleted their account.
    case userDeleted(UserDeletedNotice)
    /// The receiver (on another of their devices) pinned, unpinned, muted or unmuted this
    /// conversation: it is now as given.
    case conversationUpdated(Conversation)
    /// The receiver was made a member of this group (created, or added).
    case groupCreated(Group)
    /// A group the receiver is in changed: its title, members or roles.
    case groupUpdated(Group)
    /// The receiver was removed from, or left, a group.
    case groupRemoved(GroupRemovedNotice)
    /// Events after the client's `since` were pruned (older than the server keeps): what they
    /// said is read again from the lists (conversations, requests, timeline).
    case eventsPruned(EventsPrunedNotice)
    /// A user the receiver shares an encrypted conversation with (or the receiver, on another
    /// device) added, rotated or removed a device.
    case deviceChanged(DeviceChangedNotice)
    /// A type this version does not know; clients skip it and keep the seq.
    case unknown(type: String)

    /// The wire name of the type.
    public var type: String {
        switch self {
        case .messageCreated: EventType.messageCreated
        case .messageUpdated: EventType.messageUpdated
        case .messageDeleted: EventType.messageDeleted
        case .messageRead: EventType.messageRead
        case .typing: EventType.typing
        case .followCreated: EventType.followCreated
        case .tweetCreated: EventType.tweetCreated
        case .blockCreated: EventType.blockCreated
        case .blockDeleted: EventType.blockDeleted
        case .userDeleted: EventType.userDeleted
        case .conversationUpdated: EventType.conversationUpdated
        case .groupCreated: EventType.groupCreated
        case .groupUpdated: EventType.groupUpdated
        case .groupRemoved: EventType.groupRemoved
        case .eventsPruned: EventType.eventsPruned
        case .deviceChanged: EventType.deviceChanged
        case .unknown(let type): type
        }
    }
}

/// `message.read` data: `reader` read the messages `peer` sent them, up to message `upTo`;
/// in a group (`group` set, `peer` `""` and absent in JSON), the group's messages up to `upTo`.
public struct ReadReceipt: Sendable, Hashable, Codable {
    public var reader: String
    public var peer: String
    public var upTo: String
    public var group: String?

    public init(reader: String, peer: String, upTo: String, group: String? = nil) {
        self.reader = reader
        self.peer = peer
        self.upTo = upTo
        self.group = group
    }

    enum CodingKeys: String, CodingKey { case reader, peer, upTo, group }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reader = try container.decode(String.self, forKey: .reader)
        peer = try container.decodeIfPresent(String.self, forKey: .peer) ?? ""
        upTo = try container.decode(String.self, forKey: .upTo)
        group = try container.decodeIfPresent(String.self, forKey: .group)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reader, forKey: .reader)
        if let group { try container.encode(group, forKey: .group) } else { try container.encode(peer, forKey: .peer) }
        try container.encode(upTo, forKey: .upTo)
    }
}

/// `message.deleted` data: the unsent message's id and its two people (in a group, `group`
/// and `recipient` `""`, `null` in JSON), and `removedByOperators: true` when the operators took
/// it down (absent otherwise).
public struct MessageDeletedNotice: Sendable, Hashable, Codable {
    public var id: String
    public var sender: String
    public var recipient: String
    public var removedByOperators: Bool?
    public var group: String?

    public init(id: String, sender: String, recipient: String, removedByOperators: Bool? = nil, group: String? = nil) {
        self.id = id
        self.sender = sender
        self.recipient = recipient
        self.removedByOperators = removedByOperators
        self.group = group
    }

    enum CodingKeys: String, CodingKey { case id, sender, recipient, removedByOperators, group }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        sender = try container.decode(String.self, forKey: .sender)
        recipient = try container.decodeIfPresent(String.self, forKey: .recipient) ?? ""
        removedByOperators = try container.decodeIfPresent(Bool.self, forKey: .removedByOperators)
        group = try container.decodeIfPresent(String.self, forKey: .group)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sender, forKey: .sender)
        if let group {
            try container.encodeNil(forKey: .recipient)
            try container.encode(group, forKey: .group)
        } else {
            try container.encode(recipient, forKey: .recipient)
        }
        try container.encodeIfPresent(removedByOperators, forKey: .removedByOperators)
    }
}

/// `typing` data: who is typing to the receiver (in the group `group`, when set).
public struct TypingNotice: Sendable, Hashable, Codable {
    public var from: String
    public var group: String?
    public init(from: String, group: String? = nil) {
        self.from = from
        self.group = group
    }
}

/// `follow.created` data: who started following the receiver.
public struct FollowNotice: Sendable, Hashable, Codable {
    public var follower: User
    public init(follower: User) { self.follower = follower }
}

/// `block.created` / `block.deleted` data: whom the receiver blocked or unblocked.
public struct BlockNotice: Sendable, Hashable, Codable {
    public var username: String
    public init(username: String) { self.username = username }
}

/// The reply of `GET /v1/events`: events after `since` in ascending `seq`, and `lastSeq`, the
/// seq of the last event returned (or, when none is returned, the user's latest seq).
public struct EventsResponse: Sendable, Hashable, Codable {
    public var events: [Event]
    public var lastSeq: Int64

    public init(events: [Event], lastSeq: Int64) {
        self.events = events
        self.lastSeq = lastSeq
    }
}
