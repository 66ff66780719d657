import ChirpModels

/// Group conversations (API.md part 3). Each write is one transaction that reads the group's
/// facts, asks the service's `GroupDecisions` what to write, writes it and appends the events
/// to every member's stream.
protocol GroupStore: Sendable {
    /// Creates `new` unless its creator used its client id before (then the decisions answer
    /// with that group or a conflict); each member's facts are asked about first.
    func createGroup(_ new: NewGroup, decisions: some GroupDecisions) async throws -> WriteOutcome<Group>
    /// The groups the user is a current member of, in id order.
    func memberGroups(userId: Int64) async throws -> [Group]
    /// The group and the viewer's membership; nil when there is no such group or the viewer
    /// was never a member of it.
    func group(id: Int64, viewer: Int64) async throws -> GroupSnapshot?
    /// Applies what the decisions make of `change` by `actor` (nil outcome: no such group for
    /// the actor).
    func changeGroup(
        id: Int64, actor: Viewer, change: GroupChange, at: Timestamp, decisions: some GroupDecisions
    ) async throws -> WriteOutcome<Group>?
    /// Stores a group message (or answers a retry), with one `message.created` per current
    /// member; nil: the sender is not a current member.
    func sendGroupMessage(_ new: NewGroupMessage, decisions: some GroupDecisions) async throws -> WriteOutcome<Message>?
    /// The sender's message of this group with this client id, if any.
    func groupMessage(groupId: Int64, sender: Int64, clientMessageId: String) async throws -> Message?
    /// The group's messages the viewer may see, ids strictly between `after` and `before`, at
    /// most `limit`, oldest first when `ascending`; nil: the viewer was never a member.
    func groupMessages(
        groupId: Int64, viewer: Int64, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]?
    /// Moves the reader's marker to `upTo` (a message they may see) and, when it moved, tells
    /// every current member with `message.read`, its data `receipt(whether the reader's group
    /// request is pending)`; nil (the rules' answer for a pending request): only the marker moves.
    func markGroupRead(
        groupId: Int64, reader: Int64, upTo: Int64, at: Timestamp,
        receipt: @escaping @Sendable (_ pendingRequest: Bool) -> String?
    ) async throws -> GroupReadOutcome
    /// Who read the message (not its sender), with when; nil: no such group for the viewer or
    /// no such message they may see.
    func groupReaders(groupId: Int64, viewer: Int64, messageId: Int64) async throws -> [GroupReader]?
    /// The current members' ids, whether the viewer has a pending group request, and which
    /// members blocked the viewer; nil unless the viewer is one of them.
    func groupMemberIds(groupId: Int64, viewer: Int64) async throws -> GroupAudience?
    /// In one transaction: reads message `id` of the group as the viewer (a current member;
    /// `.noSuchPeer` otherwise) sees it, asks `decide(the message, its sender's id)` (the
    /// service's rules), writes what it answers and appends `message.updated`
    /// (`encoding.updated`) or `message.deleted` (`encoding.deleted`) to every current member's stream.
    func changeGroupMessage(
        _ id: Int64, groupId: Int64, viewer: Int64, at: Timestamp, encoding: any MessageChangeEncoding,
        decide: @escaping @Sendable (_ message: Message, _ senderId: Int64) throws -> GroupMessageAction?
    ) async throws -> MessageChangeOutcome
    /// The group messages the viewer sees (in `group` only, when given) holding every one of
    /// `words` (`GroupSearch`), not unsent, ids below `before`, newest first, at most `limit`;
    /// nil: the viewer was never a member of `group`.
    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    /// The viewer's group conversations in `list` (every group they are a current member of,
    /// and those they left with a message they saw), each with its cursor: its place
    /// (`GroupSQL.conversations`: the last message's id, or the join mark while there is none),
    /// or for `.pinned` the pin order. `group`: only that one.
    func groupConversations(
        viewer: Int64, before cursor: Int64, limit: Int, list: GroupConversationList, group: Int64?
    ) async throws -> [Listed<Conversation>]
    /// The pin orders of the viewer's pinned direct conversations, by the peer's id (to merge
    /// them with pinned groups).
    func directPinOrders(viewer: Int64) async throws -> [String: Int64]
    /// Applies `change` to the viewer's marks on a group they are a current member of, and
    /// appends `conversation.updated` to their stream (`.noSuchPeer`: no such group for them).
    /// A group is a conversation from the moment the viewer joins it, message or not.
    func markGroup(
        id: Int64, viewer: Int64, change: ConversationMarkChange, at: Timestamp,
        decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome
}

/// Which of a viewer's group conversations to list.
enum GroupConversationList: Sendable {
    /// Neither pinned nor a pending request, newest place first (the last message, or joining).
    case listed
    /// Pending requests, newest place first.
    case requests
    /// Pinned, most recently pinned first.
    case pinned

    var condition: String {
        switch self {
        case .listed: GroupSQL.listedCondition
        case .requests: GroupSQL.requestCondition
        case .pinned: GroupSQL.pinnedCondition
        }
    }

    var order: String { self == .pinned ? "pin_order DESC" : "place DESC" }
}

/// A group to create.
struct NewGroup: Sendable {
    var creator: Viewer
    var clientGroupId: String
    var title: String
    /// The other members' usernames as given (without repeats or the creator), and their keys.
    var members: [String]
    var memberKeys: [String]
    var createdAt: Timestamp

    /// What makes a repeated creation the same call: the title and the members' keys.
    var requestKey: String { ([title] + memberKeys.sorted()).joined(separator: "\n") }
}

/// A group message to store.
struct NewGroupMessage: Sendable {
    var groupId: Int64
    var sender: Viewer
    var clientMessageId: String
    var text: String
    var createdAt: Timestamp
    var replyTo: Int64?
    /// Attachments, in order, each the sender's (`MediaService.attachable`).
    var media: [Media] = []
    /// `media` as the API's JSON (`MediaListJSON`), stored with the message.
    var mediaJSON = "[]"
    /// An encrypted message's envelope (`text` is then empty), checked against the members'
    /// devices before the send.
    var envelope: Envelope? = nil
    /// `envelope` as `messages.envelope` stores it, encoded by the service before the write.
    var envelopeJSON: String? = nil
}

/// A change of a group's title, members or roles, by an actor.
enum GroupChange: Sendable, Equatable {
    case rename(String)
    case add(username: String, key: String)
    case remove(username: String, key: String)
    case makeAdmin(username: String, key: String)
    case dropAdmin(username: String, key: String)
    /// The actor accepts their group request.
    case accept
    /// The actor declines their group request: they leave, and the group leaves their list.
    case decline
    /// The actor's account is being deleted: they leave, as a leave does.
    case accountDeleted
    /// The actor turns the group's encryption on (API.md part 4).
    case encrypt

    /// The member the change names, if any.
    var target: (username: String, key: String)? {
        switch self {
        case .rename, .accept, .decline, .accountDeleted, .encrypt: nil
        case .add(let name, let key), .remove(let name, let key), .makeAdmin(let name, let key),
            .dropAdmin(let name, let key):
            (name, key)
        }
    }
}

/// A group as stored, and one viewer's membership of it.
struct GroupSnapshot: Sendable {
    var group: Group
    /// The viewer is a current member (else they were removed or left).
    var current: Bool
}

/// One member row as a group's write decides on it.
struct GroupMemberFacts: Sendable, Equatable {
    var userId: Int64
    var role: GroupRole
    /// They were added by someone they did not allow to message them, and have not accepted.
    var request: Bool = false
}

/// What a group change's decision sees: the group (nil when it ended), its current members
/// by id, and the named user's may-message facts from the actor's side.
struct GroupChangeFacts: Sendable {
    var group: Group
    var members: [GroupMemberFacts]
    var actor: GroupMemberFacts?
    var target: RecipientFacts?
    /// How many groups the named user is a current member of (0 when nobody is named).
    var targetGroups: Int = 0
    /// For `encrypt`: the current members with no device, by username.
    var membersWithoutDevices: [String] = []

    func member(_ id: Int64) -> GroupMemberFacts? { members.first { $0.userId == id } }
}

/// Who is in a group, as a viewer (a current member) would tell them something live.
struct GroupAudience: Sendable, Equatable {
    /// The current members' ids.
    var members: [Int64]
    /// The viewer's group request is pending: they tell nobody.
    var pendingRequest: Bool
    /// The members who blocked the viewer: they hear nothing from them.
    var blockers: Set<Int64>
}

/// How many groups the users of a new group are current members of already: its creator, and
/// the others by id.
struct GroupCounts: Sendable, Equatable {
    var creator: Int
    var members: [Int64: Int]
}

/// What a group change writes.
enum GroupWrite: Sendable, Equatable {
    /// Nothing: it is so already.
    case none
    case rename(String)
    /// Adds the user; `request`: as a group request (they did not allow the actor to message them).
    case add(userId: Int64, request: Bool)
    /// Removes the user; `promote`: the member who becomes admin (the last admin left);
    /// `forget`: their membership goes entirely (a declined request), history included.
    case remove(userId: Int64, promote: Int64?, forget: Bool = false)
    case setRole(userId: Int64, GroupRole)
    /// The user's group request is accepted.
    case accept(userId: Int64)
    /// The group's encryption is turned on.
    case encrypt
}

/// What marking a group read did.
enum GroupReadOutcome: Sendable {
    case noSuchGroup
    case noSuchMessage
    case unchanged
    case marked([AppendedEvent])
}

/// The rules a group write asks inside its transaction (implemented by `GroupRules`).
protocol GroupDecisions: Sendable {
    /// A creation under a client id the creator used for `existing`, made of `requestKey`:
    /// the same group again, or a conflict.
    /// `creatorIsMember`: whether the creator is still a current member of it.
    func replay(_ existing: Group, requestKey: String, creatorIsMember: Bool, for new: NewGroup) throws -> Group
    /// Whether the creator may add each member (facts in the order of `new.members`, nil: no
    /// such user), given how many groups each is in already: for each, whether as a request;
    /// throws a refusal.
    func admit(_ members: [RecipientFacts?], groupCounts: GroupCounts, for new: NewGroup) throws -> [Bool]
    /// What `change` writes, given the facts.
    func decide(_ change: GroupChange, facts: GroupChangeFacts) throws -> GroupWrite
    /// A stored message under the same client id: the same send again, or a conflict.
    func replay(_ existing: Message, for new: NewGroupMessage) throws -> Message
    /// The group as its events' data; `asRequest`: marked a request (`group.created` to a
    /// member for whom it is one).
    func encode(_ group: Group, asRequest: Bool) -> String
    /// A group message as its `message.created` data (`fromBlocked` for members who blocked
    /// the sender).
    func encode(_ message: Message) -> String
    /// Whether a new message may be stored in a group that is (`encrypted`) or is not
    /// encrypted: an envelope, or text, as the group takes; throws otherwise.
    func mayStore(_ new: NewGroupMessage, encrypted: Bool) throws
    /// `group.removed`'s data.
    func removedNotice(_ groupId: Int64) -> String
    /// A group conversation as its `conversation.updated` data.
    func encode(_ conversation: Conversation) -> String
}

/// Who hears of a group change, and what: the members who stay get `group.updated`, an added
/// member `group.created` (marked a request when it is one for them), a removed (or leaving)
/// one `group.removed`.
struct GroupChangeAudience: Sendable, Equatable {
    var updated: [Int64]
    var created: [Int64] = []
    /// Those told `group.created` for whom the group is a message request.
    var createdAsRequest: [Int64] = []
    var removed: [Int64] = []

    /// A new group's first members (`members`, the creator among them), `requested` the
    /// ones it is a request for.
    init(creating members: [Int64], requested: Set<Int64>) {
        updated = []
        created = members.filter { !requested.contains($0) }
        createdAsRequest = members.filter { requested.contains($0) }
    }

    init(_ write: GroupWrite, membersBefore: [Int64]) {
        switch write {
        case .add(let userId, let request):
            updated = membersBefore
            if request { createdAsRequest = [userId] } else { created = [userId] }
        case .remove(let userId, _, _):
            updated = membersBefore.filter { $0 != userId }
            removed = [userId]
        case .accept:
            updated = []
        case .none, .rename, .setRole, .encrypt:
            updated = membersBefore
        }
    }

    /// The member whose group request this write declines (their conversation leaves their
    /// list: their other devices get it once more, `declined`).
    static func decliner(_ write: GroupWrite) -> Int64? {
        if case .remove(let userId, _, true) = write { return userId }
        return nil
    }

    /// Whether the change ends the group: its last member leaves.
    static func ends(_ write: GroupWrite, membersBefore: [Int64]) -> Bool {
        if case .remove(let userId, _, _) = write { return membersBefore == [userId] }
        return false
    }
}

/// What a group message action writes, as the rules decided on the stored message
/// (`GroupMessageAction.decide`, in the services): an update or an unsend, and the event type
/// that tells the members.
struct GroupMessageAction: Sendable, Equatable {
    var change: MessageChange
    var type: String
}
