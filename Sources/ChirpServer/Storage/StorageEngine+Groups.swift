import ChirpModels

/// The group stores' creating, changing, listing and reading parts, written once for both
/// engines (a group message's send is `StorageEngine+GroupMessages`, its changes
/// `StorageEngine+MessageChanges`; search stays each engine's).
extension StorageEngine {
    func createGroup(_ new: NewGroup, decisions: some GroupDecisions) async throws -> WriteOutcome<Group> {
        try await writing { scope in
            let creator = new.creator.id
            // The creator's row first: their creations queue, so a client id is looked up once.
            try await scope.lockUsers([creator])
            if let existing = try await scope.queryValue(
                GroupSQL.groupByClientId, creator, new.clientGroupId, as: Int64.self),
                let stored = try await scope.storedGroup(id: existing)
            {
                let current =
                    try await scope.membership(groupId: existing, userId: creator).map {
                        try $0("current", as: Bool.self)
                    } ?? false
                return WriteOutcome(
                    value: try decisions.replay(
                        stored.group, requestKey: stored.requestKey, creatorIsMember: current, for: new), created: false
                )
            }
            var facts: [RecipientFacts?] = []
            for key in new.memberKeys { facts.append(try await scope.recipientFacts(key: key, sender: creator)) }
            var counts = GroupCounts(creator: try await scope.groupCount(userId: creator), members: [:])
            for id in facts.compactMap({ $0?.id }) { counts.members[id] = try await scope.groupCount(userId: id) }
            let requests = try decisions.admit(facts, groupCounts: counts, for: new)
            let memberIds = try facts.map { facts in
                guard let facts else {
                    throw StorageError.inconsistent("a group was allowed with a member who does not exist")
                }
                return facts.id
            }
            try await scope.lockUsers([creator] + memberIds)
            guard
                let groupId = try await scope.queryValue(
                    "INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    creator, new.clientGroupId, new.title, new.createdAt, new.requestKey, as: Int64.self)
            else { throw StorageError.inconsistent("a group insert returned no id") }
            // One join mark for the first members: the group is new, so it is one of theirs each.
            let joined = try await scope.nextMessageId()
            for (userId, role, request) in [(creator, GroupRole.admin, false)]
                + zip(memberIds, requests).map({ ($0, GroupRole.member, $1) })
            {
                try await scope.run(GroupSQL.addMember, groupId, userId, role.rawValue, new.createdAt, joined, request)
            }
            guard let group = try await scope.storedGroup(id: groupId)?.group else {
                throw StorageError.inconsistent("group \(groupId) is missing")
            }
            let requested = Set(zip(memberIds, requests).compactMap { userId, request in request ? userId : nil })
            let audience = GroupChangeAudience(
                creating: try await scope.memberIds(groupId: groupId), requested: requested)
            let appended = try await scope.tell(
                audience, group: group, id: groupId, at: new.createdAt, decisions: decisions)
            return WriteOutcome(value: group, created: true, appended: appended)
        }
    }

    func memberGroups(userId: Int64) async throws -> [Group] {
        try await reading { scope in
            var groups: [Group] = []
            for row in try await scope.query(GroupSQL.groupsOfMember, userId) {
                if let stored = try await scope.storedGroup(id: try row(0, as: Int64.self)) {
                    groups.append(stored.group)
                }
            }
            return groups
        }
    }

    func group(id: Int64, viewer: Int64) async throws -> GroupSnapshot? {
        try await reading { scope in
            guard let membership = try await scope.membership(groupId: id, userId: viewer),
                let stored = try await scope.storedGroup(id: id)
            else { return nil }
            return GroupSnapshot(group: stored.group, current: try membership("current"))
        }
    }

    func changeGroup(
        id: Int64, actor: Viewer, change: GroupChange, at: Timestamp, decisions: some GroupDecisions
    ) async throws -> WriteOutcome<Group>? {
        try await writing { scope in
            guard try await scope.lockGroup(id), let stored = try await scope.storedGroup(id: id), !stored.ended else {
                return nil
            }
            let members = try await scope.memberFacts(groupId: id)
            guard let actorFacts = members.first(where: { $0.userId == actor.id }) else { return nil }
            var target: RecipientFacts?
            if let key = change.target?.key { target = try await scope.recipientFacts(key: key, sender: actor.id) }
            var targetGroups = 0
            if let target { targetGroups = try await scope.groupCount(userId: target.id) }
            var withoutDevices: [String] = []
            if change == .encrypt {
                withoutDevices = try await scope.query(GroupSQL.membersWithoutDevices, id).map { try $0("username") }
            }
            let write = try decisions.decide(
                change,
                facts: GroupChangeFacts(
                    group: stored.group, members: members, actor: actorFacts, target: target,
                    targetGroups: targetGroups,
                    membersWithoutDevices: withoutDevices))
            if write == .none { return WriteOutcome(value: stored.group, created: false) }
            let before = members.map(\.userId)
            var declined: Conversation?
            if let decliner = GroupChangeAudience.decliner(write) {
                declined = try await scope.groupConversation(viewer: decliner, group: id)
                declined?.declined = true
            }
            var (group, appended) = try await scope.applyGroupWrite(
                id: id, write, membersBefore: before, audience: GroupChangeAudience(write, membersBefore: before),
                at: at,
                decisions: decisions)
            if let declined, let userId = GroupChangeAudience.decliner(write) {
                appended.append(
                    try await scope.appendEvent(
                        userId: userId, type: EventType.conversationUpdated, json: decisions.encode(declined), at: at))
            }
            // An accepted request: the viewer's other devices get the conversation, if it has begun.
            if case .accept(let userId) = write,
                let conversation = try await scope.groupConversation(viewer: userId, group: id)
            {
                appended.append(
                    try await scope.appendEvent(
                        userId: userId, type: EventType.conversationUpdated, json: decisions.encode(conversation),
                        at: at))
            }
            return WriteOutcome(value: group, created: true, appended: appended)
        }
    }

    func groupMessage(groupId: Int64, sender: Int64, clientMessageId: String) async throws -> Message? {
        try await reading { scope in
            try await scope.queryRow(GroupSQL.messageByClientId, groupId, sender, clientMessageId).map(
                MessageColumns.message(from:))
        }
    }

    func groupMessages(
        groupId: Int64, viewer: Int64, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]? {
        try await reading { scope in
            guard try await scope.membership(groupId: groupId, userId: viewer) != nil else { return nil }
            return try await scope.query(GroupSQL.page(ascending: ascending), groupId, viewer, after, before, limit)
                .map(MessageColumns.message(from:))
        }
    }

    func groupReaders(groupId: Int64, viewer: Int64, messageId: Int64) async throws -> [GroupReader]? {
        try await reading { scope in
            guard try await scope.queryRow(GroupSQL.visibleMessage, groupId, viewer, messageId) != nil,
                let sender = try await scope.queryValue(
                    "SELECT sender_id FROM messages WHERE id = $1 AND group_id IS NOT NULL", messageId, as: Int64.self)
            else { return nil }
            return try await scope.query(GroupSQL.readers, groupId, messageId, sender).map {
                GroupReader(
                    user: try UserColumns.user(from: $0, "u", withViewerFields: false), readAt: try $0("read_at"))
            }
        }
    }

    func groupMemberIds(groupId: Int64, viewer: Int64) async throws -> GroupAudience? {
        try await reading { scope in
            guard let membership = try await scope.membership(groupId: groupId, userId: viewer),
                try membership("current", as: Bool.self)
            else { return nil }
            let blockers = try await scope.query(GroupSQL.blockersOfSender, groupId, viewer).map {
                try $0("blocker_id", as: Int64.self)
            }
            return GroupAudience(
                members: try await scope.memberIds(groupId: groupId), pendingRequest: try membership("request"),
                blockers: Set(blockers))
        }
    }

    func groupConversations(
        viewer: Int64, before cursor: Int64, limit: Int, list: GroupConversationList, group: Int64?
    ) async throws -> [Listed<Conversation>] {
        try await reading { scope in
            try await scope.groupConversations(viewer: viewer, before: cursor, limit: limit, list: list, group: group)
        }
    }

    func directPinOrders(viewer: Int64) async throws -> [String: Int64] {
        try await reading { scope in
            var orders: [String: Int64] = [:]
            for row in try await scope.query(GroupSQL.directPinOrders, viewer) {
                orders[String(try row("peer_id", as: Int64.self))] = try row("pin_order", as: Int64.self)
            }
            return orders
        }
    }

    func markGroup(
        id: Int64, viewer: Int64, change: ConversationMarkChange, at: Timestamp,
        decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome {
        try await writing { scope in
            // The viewer's row, as every writer of their stream (and of their pins) locks it.
            try await scope.lockUsers([viewer])
            guard let marks = try await scope.queryRow(GroupSQL.groupMarks, viewer, id),
                let current = try await scope.groupConversation(viewer: viewer, group: id)
            else { return .noSuchPeer }
            guard change.alters(pinned: try marks("pinned"), muted: try marks("muted")) else {
                return .done(WriteOutcome(value: (), created: false))
            }
            if change == .pin { try decisions.mayPin(pinnedElsewhere: try marks("pins")) }
            try await scope.run(GroupSQL.markStatements[change]!, viewer, id)
            let conversation = try await scope.groupConversation(viewer: viewer, group: id) ?? current
            let appended = try await scope.appendEvent(
                userId: viewer, type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            return .done(WriteOutcome(value: (), created: true, appended: [appended]))
        }
    }
}

extension StorageEngine {
    /// Moves the reader's marker and tells every current member, as `receipt` (the service's
    /// rules) answers for the reader's pending request.
    func markGroupRead(
        groupId: Int64, reader: Int64, upTo: Int64, at: Timestamp,
        receipt: @escaping @Sendable (_ pendingRequest: Bool) -> String?
    ) async throws -> GroupReadOutcome {
        try await writing { scope in
            guard try await scope.lockGroup(groupId),
                let membership = try await scope.membership(groupId: groupId, userId: reader),
                try membership("current", as: Bool.self)
            else { return .noSuchGroup }
            guard try await scope.queryRow(GroupSQL.visibleMessage, groupId, reader, upTo) != nil else {
                return .noSuchMessage
            }
            let members = try await scope.memberIds(groupId: groupId)
            try await scope.lockUsers(members)
            guard try await scope.run(GroupSQL.advanceRead, groupId, reader, upTo) > 0 else { return .unchanged }
            try await scope.run(GroupSQL.recordRead, groupId, reader, upTo, at)
            guard let json = receipt(try membership("request")) else { return .unchanged }
            return .marked(
                try await scope.appendEvents(
                    userIds: members, type: EventType.messageRead, json: json, at: at, stored: .copy))
        }
    }
}
