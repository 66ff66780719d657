import ChirpModels

/// What the group stores read and write inside one scope, written once for both engines.
extension StorageScope {
    /// Locks group `id`'s row until the transaction ends (its writes queue up, before any
    /// user's row, so never in a cycle); false when there is no such group.
    func lockGroup(_ id: Int64) async throws -> Bool {
        try await queryRow("SELECT id FROM chat_groups WHERE id = $1\(dialect.forUpdate)", id) != nil
    }

    /// The group with its current members, the creating call's key and whether it ended.
    func storedGroup(id: Int64) async throws -> (group: Group, requestKey: String, ended: Bool)? {
        guard let row = try await queryRow(GroupSQL.group, id) else { return nil }
        let members = try await query(GroupSQL.members, id).map {
            GroupMember(
                user: try UserColumns.user(from: $0, "u", withViewerFields: false),
                role: GroupRole(rawValue: try $0("role")) ?? .member, joinedAt: try $0("joined_at"))
        }
        let group = Group(
            id: String(id), title: try row("title"), createdAt: try row("created_at"), createdBy: try row("username"),
            members: members, encrypted: try row("encrypted"))
        return (group, try row("request_key"), try row("ended"))
    }

    /// User `userId`'s membership of group `groupId` (`GroupSQL.membership`), if they were ever a member.
    func membership(groupId: Int64, userId: Int64) async throws -> Row? {
        try await queryRow(GroupSQL.membership, groupId, userId)
    }

    /// The current members of the group as its changes decide on them, longest-standing first.
    func memberFacts(groupId: Int64) async throws -> [GroupMemberFacts] {
        try await query(GroupSQL.memberRoles, groupId).map {
            GroupMemberFacts(
                userId: try $0("user_id"), role: GroupRole(rawValue: try $0("role")) ?? .member,
                request: try $0("request"))
        }
    }

    /// How many groups the user is a current member of (pending requests included).
    func groupCount(userId: Int64) async throws -> Int {
        try await queryValue(GroupSQL.groupCount, userId, as: Int.self) ?? 0
    }

    /// The current members' ids of the group, ascending.
    func memberIds(groupId: Int64) async throws -> [Int64] {
        try await query(GroupSQL.memberIds, groupId).map { try $0("user_id") }
    }

    /// Appends an event about group message `message` to every current member's stream (their
    /// rows locked first). The rows point at the message (`StoredEventData.message`); the live
    /// events carry `json(message)` with `fromBlocked` as each member sees it (true for those
    /// who blocked the sender), as a stream reading the rows builds it.
    func appendGroupMessageEvents(
        groupId: Int64, sender: Int64, type: String, _ message: Message, at: Timestamp,
        json: @Sendable (Message) throws -> String
    ) async throws -> [AppendedEvent] {
        guard let id = Int64(message.id) else { throw StorageError.inconsistent("group message id \(message.id)") }
        let members = try await memberIds(groupId: groupId)
        try await lockUsers(members)
        let blockers = Set(
            try await query(GroupSQL.blockersOfSender, groupId, sender).map { try $0(0, as: Int64.self) })
        var plain = message
        plain.fromBlocked = false
        var hidden = message
        hidden.fromBlocked = true
        return try await appendEvents(
            userIds: members.filter { !blockers.contains($0) }, type: type, json: json(plain), at: at,
            stored: .message(id))
            + appendEvents(
                userIds: members.filter(blockers.contains), type: type, json: json(hidden), at: at,
                stored: .message(id))
    }

    /// The facts the may-message rule decides on for the user with username key `key`, from
    /// `sender`'s side; nil when there is no such user.
    func recipientFacts(key: String, sender: Int64) async throws -> RecipientFacts? {
        try await queryRow(
            "SELECT \(StorageSQL.recipientFactColumns(sender: "$2")) FROM users u WHERE u.username_key = $1", key,
            sender
        )
        .map { row in
            RecipientFacts(
                id: try row("id"), username: try row("username"), followsSender: try row("follows_sender"),
                hasWrittenToSender: try row("wrote_to_sender"), blockedSender: try row("blocked_sender"),
                blockedBySender: try row("blocked_by_sender"), takesRequests: try row("takes_message_requests"),
                request: RequestState(accepted: try row("request")), senderHasPendingRequest: try row("sender_pending"),
                encrypted: try row("encrypted"))
        }
    }

    /// The viewer's group conversations (`GroupSQL.conversations`), each with its cursor.
    func groupConversations(
        viewer: Int64, before cursor: Int64, limit: Int, list: GroupConversationList, group: Int64?
    ) async throws -> [Listed<Conversation>] {
        let condition = list.condition + (group.map { " AND group_id = \($0)" } ?? "")
        var listed: [Listed<Conversation>] = []
        for row in try await query(GroupSQL.conversations(where: condition, orderBy: list.order), viewer, cursor, limit)
        {
            let groupId: Int64 = try row("group_id")
            guard var group = try await storedGroup(id: groupId)?.group else { continue }
            if try row("former") { group = FormerGroupColumn.decode(try row("final_group"), fallback: group) }
            var last: Message?
            if let lastId: Int64 = try row("last_id") {
                last = try await queryRow(GroupSQL.visibleMessage, groupId, viewer, lastId).map(
                    MessageColumns.message(from:))
            }
            let conversation = Conversation(
                peer: Conversation.noPeer, lastMessage: last, unreadCount: try row("unread"),
                kind: Conversation.groupKind,
                request: try row("request"), pinned: try row("pinned"), muted: try row("muted"), group: group)
            listed.append(Listed(cursor: try row(list == .pinned ? "pin_order" : "place"), item: conversation))
        }
        return listed
    }

    /// The viewer's conversation of one group, whichever list it is in.
    func groupConversation(viewer: Int64, group: Int64) async throws -> Conversation? {
        for list in [GroupConversationList.listed, .requests, .pinned] {
            if let found = try await groupConversations(
                viewer: viewer, before: Int64.max, limit: 1, list: list, group: group
            ).first {
                return found.item
            }
        }
        return nil
    }

    /// Writes what a group change decided (`write`) on group `id` (its row locked), whose
    /// current members were `before` (ending the group when its last member leaves), and tells
    /// `audience` (`GroupChangeAudience`, their rows locked first); returns the group after it
    /// and the events appended.
    func applyGroupWrite(
        id: Int64, _ write: GroupWrite, membersBefore before: [Int64], audience: GroupChangeAudience, at: Timestamp,
        decisions: some GroupDecisions
    ) async throws -> (Group, [AppendedEvent]) {
        try await lockUsers(audience.updated + audience.created + audience.createdAsRequest + audience.removed)
        switch write {
        case .none:
            break
        case .rename(let title):
            try await run(GroupSQL.rename, id, title)
        case .add(let userId, let request):
            // Under the group's lock: no message of the group takes an id below the mark and
            // commits after it, so the new member sees every message sent after joining.
            try await run(
                GroupSQL.addMember, id, userId, GroupRole.member.rawValue, at, try await nextMessageId(), request)
        case .remove(let userId, let promote, let forget):
            if forget {
                try await run(GroupSQL.forgetMember, id, userId)
            } else {
                guard let before = try await storedGroup(id: id)?.group else {
                    throw StorageError.inconsistent("group \(id) is missing")
                }
                try await run(GroupSQL.removeMember, id, userId, at, decisions.encode(before, asRequest: false))
            }
            if let promote { try await run(GroupSQL.setRole, id, promote, GroupRole.admin.rawValue) }
            if GroupChangeAudience.ends(write, membersBefore: before) { try await run(GroupSQL.end, id) }
        case .setRole(let userId, let role):
            try await run(GroupSQL.setRole, id, userId, role.rawValue)
        case .accept(let userId):
            try await run(GroupSQL.acceptRequest, userId, id)
        case .encrypt:
            try await run(GroupSQL.encrypt, id, at)
        }
        guard let group = try await storedGroup(id: id)?.group else {
            throw StorageError.inconsistent("group \(id) is missing")
        }
        return (group, try await tell(audience, group: group, id: id, at: at, decisions: decisions))
    }

    /// Appends the events `audience` is told of the change of `group` (number `id`;
    /// `GroupChangeAudience`). The Group is stored once per change and kind, whatever the
    /// number of members told.
    func tell(
        _ audience: GroupChangeAudience, group: Group, id: Int64, at: Timestamp, decisions: some GroupDecisions
    ) async throws -> [AppendedEvent] {
        let json = decisions.encode(group, asRequest: false)
        var appended = try await appendEvents(
            userIds: audience.updated, type: EventType.groupUpdated, json: json, at: at, stored: .shared)
        appended += try await appendEvents(
            userIds: audience.created, type: EventType.groupCreated, json: json, at: at, stored: .shared)
        appended += try await appendEvents(
            userIds: audience.createdAsRequest, type: EventType.groupCreated,
            json: decisions.encode(group, asRequest: true), at: at,
            stored: .shared)
        appended += try await appendEvents(
            userIds: audience.removed, type: EventType.groupRemoved, json: decisions.removedNotice(id), at: at,
            stored: .copy)
        return appended
    }

    /// Account deletion's leaving of groups: user `userId` leaves each of `groups` (ids) as a
    /// leave does (`GroupChange.accountDeleted`), the members who stay told with
    /// `group.updated`. The account's own stream goes with it: nobody tells it of its removal.
    func leaveGroups(_ groups: [Int64], userId: Int64, at: Timestamp, decisions: some GroupDecisions) async throws
        -> [AppendedEvent]
    {
        var appended: [AppendedEvent] = []
        for id in groups {
            guard let stored = try await storedGroup(id: id), !stored.ended else { continue }
            let members = try await memberFacts(groupId: id)
            guard let leaving = members.first(where: { $0.userId == userId }) else { continue }
            let write = try decisions.decide(
                .accountDeleted, facts: GroupChangeFacts(group: stored.group, members: members, actor: leaving))
            let before = members.map(\.userId)
            var audience = GroupChangeAudience(write, membersBefore: before)
            audience.removed = []
            appended += try await applyGroupWrite(
                id: id, write, membersBefore: before, audience: audience, at: at, decisions: decisions
            ).1
        }
        return appended
    }
}
