import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func createGroup(_ new: NewGroup, decisions: some GroupDecisions) async throws -> WriteOutcome<Group> {
        try await write { scope in
            let creator = new.creator.id
            // The creator's row first: their creations queue, so a client id is looked up once.
            try await scope.lockUsers([creator])
            if let existing = try await scope.value(
                PostgresQuery(unsafeSQL: GroupSQL.groupByClientId, binds: Self.binds(creator, new.clientGroupId)), as: Int64.self),
               let stored = try await Self.storedGroup(scope, id: existing) {
                let current = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(existing, creator)))
                    .map { try $0.value(0, as: Bool.self) } ?? false
                return WriteOutcome(
                    value: try decisions.replay(stored.group, requestKey: stored.requestKey, creatorIsMember: current, for: new), created: false)
            }
            var facts: [RecipientFacts?] = []
            for key in new.memberKeys {
                facts.append(try await scope.row(PostgresQuery(
                    unsafeSQL: "SELECT \(StorageSQL.recipientFactColumns(sender: "$2")) FROM users u WHERE u.username_key = $1",
                    binds: Self.binds(key, creator))
                ).map { try Self.recipientFacts(from: $0, at: 0) })
            }
            var counts = GroupCounts(creator: try await Self.groupCount(scope, userId: creator), members: [:])
            for id in facts.compactMap({ $0?.id }) { counts.members[id] = try await Self.groupCount(scope, userId: id) }
            let requests = try decisions.admit(facts, groupCounts: counts, for: new)
            let memberIds = try facts.map { facts in
                guard let facts else { throw StorageError.inconsistent("a group was allowed with a member who does not exist") }
                return facts.id
            }
            try await scope.lockUsers([creator] + memberIds)
            guard let groupId = try await scope.value("""
                INSERT INTO chat_groups (creator_id, client_group_id, title, created_at, request_key)
                VALUES (\(creator), \(new.clientGroupId), \(new.title), \(new.createdAt.millisecondsSince1970), \(new.requestKey))
                RETURNING id
                """, as: Int64.self)
            else { throw StorageError.inconsistent("a group insert returned no id") }
            let at = new.createdAt.millisecondsSince1970
            // One join mark for the first members: the group is new, so it is one of theirs each.
            let joined = try await Self.nextMessageId(scope)
            for (userId, role, request) in [(creator, GroupRole.admin, false)] + zip(memberIds, requests).map({ ($0, GroupRole.member, $1) }) {
                try await scope.execute(PostgresQuery(
                    unsafeSQL: GroupSQL.addMember, binds: Self.binds(groupId, userId, role.rawValue, at, joined, request)))
            }
            guard let group = try await Self.storedGroup(scope, id: groupId)?.group else {
                throw StorageError.inconsistent("group \(groupId) is missing")
            }
            let requested = Set(zip(memberIds, requests).compactMap { userId, request in request ? userId : nil })
            let audience = GroupChangeAudience(creating: try await Self.memberIds(scope, groupId: groupId), requested: requested)
            let appended = try await Self.tell(scope, audience, group: group, id: groupId, at: new.createdAt, decisions: decisions)
            return WriteOutcome(value: group, created: true, appended: appended)
        }
    }

    func memberGroups(userId: Int64) async throws -> [Group] {
        try await read { scope in
            var groups: [Group] = []
            for row in try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.groupsOfMember, binds: Self.binds(userId))) {
                if let stored = try await Self.storedGroup(scope, id: try row.value(0, as: Int64.self)) { groups.append(stored.group) }
            }
            return groups
        }
    }

    func group(id: Int64, viewer: Int64) async throws -> GroupSnapshot? {
        try await read { scope in
            guard let membership = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(id, viewer))),
                  let stored = try await Self.storedGroup(scope, id: id)
            else { return nil }
            return GroupSnapshot(group: stored.group, current: try membership.value(0))
        }
    }

    func changeGroup(
        id: Int64, actor: Viewer, change: GroupChange, at: Timestamp, decisions: some GroupDecisions
    ) async throws -> WriteOutcome<Group>? {
        try await write { scope in
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.lockGroup, binds: Self.binds(id))) != nil,
                  let stored = try await Self.storedGroup(scope, id: id), !stored.ended
            else { return nil }
            let members = try await Self.memberFacts(scope, groupId: id)
            guard let actorFacts = members.first(where: { $0.userId == actor.id }) else { return nil }
            var target: RecipientFacts?
            if let key = change.target?.key {
                target = try await scope.row(PostgresQuery(
                    unsafeSQL: "SELECT \(StorageSQL.recipientFactColumns(sender: "$2")) FROM users u WHERE u.username_key = $1",
                    binds: Self.binds(key, actor.id))
                ).map { try Self.recipientFacts(from: $0, at: 0) }
            }
            var targetGroups = 0
            if let target { targetGroups = try await Self.groupCount(scope, userId: target.id) }
            let write = try decisions.decide(change, facts: GroupChangeFacts(
                group: stored.group, members: members, actor: actorFacts, target: target, targetGroups: targetGroups))
            if write == .none { return WriteOutcome(value: stored.group, created: false) }
            let before = members.map(\.userId)
            var declined: Conversation?
            if let decliner = GroupChangeAudience.decliner(write) {
                declined = try await Self.groupConversation(scope, viewer: decliner, group: id)
                declined?.declined = true
            }
            let group = try await Self.applyGroupWrite(
                scope, id: id, write, membersBefore: before, audience: GroupChangeAudience(write, membersBefore: before), at: at,
                decisions: decisions)
            if let declined, let userId = GroupChangeAudience.decliner(write) {
                try await scope.appendEvents(userIds: [userId], type: EventType.conversationUpdated, json: decisions.encode(declined), at: at)
            }
            // An accepted request: the viewer's other devices get the conversation, if it has begun.
            if case .accept(let userId) = write, let conversation = try await Self.groupConversation(scope, viewer: userId, group: id) {
                try await scope.appendEvents(userIds: [userId], type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            }
            return WriteOutcome(value: group, created: true, appended: scope.appended)
        }
    }

    /// Writes what a group change decided (`write`) on group `id` (its row locked), whose
    /// current members were `before` (ending the group when its last member leaves), and tells
    /// `audience` (`GroupChangeAudience`, their rows locked first); returns the group after it.
    static func applyGroupWrite(
        _ scope: PostgresScope, id: Int64, _ write: GroupWrite, membersBefore before: [Int64], audience: GroupChangeAudience,
        at: Timestamp, decisions: some GroupDecisions
    ) async throws -> Group {
        try await scope.lockUsers(audience.updated + audience.created + audience.createdAsRequest + audience.removed)
        let ms = at.millisecondsSince1970
        switch write {
        case .none:
            break
        case .rename(let title):
            try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.rename, binds: binds(id, title)))
        case .add(let userId, let request):
            // Under the group's lock (`changeGroup`): no message of the group takes an id below
            // the mark and commits after it, so the new member sees every message sent after joining.
            let joined = try await nextMessageId(scope)
            try await scope.execute(PostgresQuery(
                unsafeSQL: GroupSQL.addMember, binds: binds(id, userId, GroupRole.member.rawValue, ms, joined, request)))
        case .remove(let userId, let promote, let forget):
            if forget {
                try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.forgetMember, binds: binds(id, userId)))
            } else {
                guard let before = try await storedGroup(scope, id: id)?.group else { throw StorageError.inconsistent("group \(id) is missing") }
                try await scope.execute(PostgresQuery(
                    unsafeSQL: GroupSQL.removeMember, binds: binds(id, userId, ms, decisions.encode(before, asRequest: false))))
            }
            if let promote {
                try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.setRole, binds: binds(id, promote, GroupRole.admin.rawValue)))
            }
            if GroupChangeAudience.ends(write, membersBefore: before) {
                try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.end, binds: binds(id)))
            }
        case .setRole(let userId, let role):
            try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.setRole, binds: binds(id, userId, role.rawValue)))
        case .accept(let userId):
            try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.acceptRequest, binds: binds(userId, id)))
        }
        guard let group = try await storedGroup(scope, id: id)?.group else { throw StorageError.inconsistent("group \(id) is missing") }
        try await tell(scope, audience, group: group, id: id, at: at, decisions: decisions)
        return group
    }

    /// Appends the events `audience` is told of the change of `group` (number `id`; `GroupChangeAudience`).
    @discardableResult
    static func tell(
        _ scope: PostgresScope, _ audience: GroupChangeAudience, group: Group, id: Int64, at: Timestamp, decisions: some GroupDecisions
    ) async throws -> [AppendedEvent] {
        // The Group is stored once per change and kind, whatever the number of members told.
        let json = decisions.encode(group, asRequest: false)
        var appended = try await scope.appendEvents(userIds: audience.updated, type: EventType.groupUpdated, json: json, at: at, shared: true)
        appended += try await scope.appendEvents(userIds: audience.created, type: EventType.groupCreated, json: json, at: at, shared: true)
        appended += try await scope.appendEvents(
            userIds: audience.createdAsRequest, type: EventType.groupCreated, json: decisions.encode(group, asRequest: true), at: at,
            shared: true)
        appended += try await scope.appendEvents(userIds: audience.removed, type: EventType.groupRemoved, json: decisions.removedNotice(id), at: at)
        return appended
    }

    /// Locks the rows of the groups user `userId` is a current member of, in id order (a
    /// group's row before any user's, as every group write), and returns their ids.
    static func lockGroups(_ scope: PostgresScope, ofMember userId: Int64) async throws -> [Int64] {
        try await scope.rows(PostgresQuery(
            unsafeSQL: "SELECT id FROM chat_groups WHERE id IN (\(GroupSQL.groupsOfMember)) ORDER BY id FOR UPDATE", binds: binds(userId))
        ).map { try $0.value(0, as: Int64.self) }
    }

    /// Account deletion's part in groups, inside its transaction (`groups` locked first,
    /// `lockGroups`): the user's group messages become tombstones wherever they are stored
    /// (their rows, and the members' stored events, which name the sender `placeholder` from
    /// now on); the user leaves each of `groups` as a leave does (`GroupChange.accountDeleted`),
    /// the members who stay told with `group.updated`; their pins and mutes of groups go.
    static func deleteGroupPart(
        _ scope: PostgresScope, userId: Int64, groups: [Int64], placeholder: String, at: Timestamp, decisions: some GroupDecisions
    ) async throws {
        try await tombstoneGroupMessages(scope, where: "sender_id = $1", userId, sender: placeholder)
        try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.forgetMarks, binds: binds(userId)))
        for id in groups {
            guard let stored = try await storedGroup(scope, id: id), !stored.ended else { continue }
            let members = try await memberFacts(scope, groupId: id)
            guard let leaving = members.first(where: { $0.userId == userId }) else { continue }
            let write = try decisions.decide(.accountDeleted, facts: GroupChangeFacts(group: stored.group, members: members, actor: leaving))
            let before = members.map(\.userId)
            // The account's own stream goes with it: nobody is told of its removal.
            var audience = GroupChangeAudience(write, membersBefore: before)
            audience.removed = []
            _ = try await applyGroupWrite(scope, id: id, write, membersBefore: before, audience: audience, at: at, decisions: decisions)
        }
    }

    /// Takes group message `id` down (`ModerationStore.takeDown`): a tombstone marked
    /// `removedByOperators` wherever it is stored, `message.deleted` to every current member
    /// (`notice`), an entry in the audit log; nil when there is no such group message. The
    /// group's row is locked first, as every group write locks it.
    static func takeDownGroupMessage(
        _ scope: PostgresScope, id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding
    ) async throws -> WriteOutcome<Message>? {
        guard let ids = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.messageGroupAndSender, binds: binds(id))) else { return nil }
        let groupId = try ids.value(0, as: Int64.self), sender = try ids.value(1, as: Int64.self)
        guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.lockGroup, binds: binds(groupId))) != nil,
              let row = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.messageById, binds: binds(id, sender)))
        else { return nil }
        let message = try groupMessage(from: row)
        guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
        let takenDown = message.tombstone(byOperators: true)
        try await tombstoneGroupMessages(scope, where: "id = $1", id, byOperators: true)
        let notice = try encoding.deleted(takenDown)
        try await appendGroupMessageEvents(
            scope, groupId: groupId, sender: sender, type: EventType.messageDeleted, takenDown, at: at
        ) { _ in notice }
        try await audit(scope, actor, .removeMessage, target: message.id, detail: "\(message.sender) in group \(groupId)", at: at)
        return WriteOutcome(value: takenDown, created: true, appended: scope.appended)
    }

    /// Makes the group messages matching `messages` (a condition on `messages` over `$1`,
    /// `argument`) tombstones in their rows and in the stored events that hold their JSON (the
    /// members' `message.created` and edits): no text, media or reactions; `byOperators` marks
    /// them taken down, `sender` names their sender anew in those events.
    static func tombstoneGroupMessages(
        _ scope: PostgresScope, where messages: String, _ argument: Int64, byOperators: Bool = false, sender: String? = nil
    ) async throws {
        var patch = byOperators ? takenDownPatch : tombstonePatch
        var bindings = Self.binds(argument)
        if let sender {
            patch = "(\(patch)::jsonb || jsonb_build_object('sender', $2::text))::text"
            bindings.append(sender)
        }
        try await scope.execute(PostgresQuery(
            unsafeSQL: "UPDATE events SET data = \(patch) WHERE \(GroupSQL.storedMessageEvents(of: messages, dataId: "data::jsonb ->> 'id'"))",
            binds: bindings))
        try await scope.execute(PostgresQuery(
            unsafeSQL: GroupSQL.tombstone(where: messages, byOperators: byOperators, alsoClear: ", search_words = '{}'"), binds: Self.binds(argument)))
    }

    func sendGroupMessage(_ new: NewGroupMessage, decisions: some GroupDecisions) async throws -> WriteOutcome<Message>? {
        try await write { scope in
            let sender = new.sender
            // The group's row, then its members' in id order: the membership cannot change under
            // the send, and every member's stream gets its event gap-free.
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.lockGroup, binds: Self.binds(new.groupId))) != nil,
                  let membership = try await scope.row(
                      PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(new.groupId, sender.id))),
                  try membership.value(0, as: Bool.self)
            else { return nil }
            if let existing = try await Self.groupMessage(scope, groupId: new.groupId, sender: sender.id, clientMessageId: new.clientMessageId) {
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            guard let id = try await scope.value("""
                INSERT INTO messages (id, group_id, sender_id, client_message_id, text, created_at, reply_to, media_json, search_words)
                VALUES (nextval(pg_get_serial_sequence('messages', 'id')), \(new.groupId), \(sender.id), \(new.clientMessageId),
                    \(new.text), \(new.createdAt.millisecondsSince1970), \(new.replyTo), \(MediaJSON.encode(new.media)),
                    \(SearchTerms.words(new.text)))
                RETURNING id
                """, as: Int64.self)
            else { throw StorageError.inconsistent("a group message insert returned no id") }
            for (position, item) in new.media.enumerated() {
                guard let mediaId = Int64(item.id) else { throw StorageError.inconsistent("media id \(item.id) is not a number") }
                try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.attachMedia, binds: Self.binds(id, Int32(position), mediaId)))
            }
            let message = Message(
                id: String(id), clientMessageId: new.clientMessageId, sender: sender.username, recipient: "", text: new.text,
                createdAt: new.createdAt, readByRecipient: false, media: new.media, replyTo: new.replyTo.map { String($0) },
                group: String(new.groupId))
            let json = decisions.encode(message)
            try await Self.appendGroupMessageEvents(
                scope, groupId: new.groupId, sender: sender.id, type: EventType.messageCreated, message, at: new.createdAt
            ) { $0.fromBlocked ? decisions.encode($0) : json }
            return WriteOutcome(value: message, created: true, appended: scope.appended, json: json)
        }
    }

    func groupMessage(groupId: Int64, sender: Int64, clientMessageId: String) async throws -> Message? {
        try await read { scope in try await Self.groupMessage(scope, groupId: groupId, sender: sender, clientMessageId: clientMessageId) }
    }

    func groupMessages(
        groupId: Int64, viewer: Int64, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]? {
        try await read { scope in
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(groupId, viewer))) != nil
            else { return nil }
            return try await scope.rows(PostgresQuery(
                unsafeSQL: GroupSQL.page(ascending: ascending), binds: Self.binds(groupId, viewer, after, before, Int64(limit)))
            ).map(Self.groupMessage(from:))
        }
    }

    func markGroupRead(groupId: Int64, reader: Int64, upTo: Int64, at: Timestamp, receipt: String) async throws -> GroupReadOutcome {
        try await write { scope in
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.lockGroup, binds: Self.binds(groupId))) != nil,
                  let membership = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(groupId, reader))),
                  try membership.value(0, as: Bool.self)
            else { return .noSuchGroup }
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.visibleMessage, binds: Self.binds(groupId, reader, upTo))) != nil
            else { return .noSuchMessage }
            let members = try await Self.memberIds(scope, groupId: groupId)
            try await scope.lockUsers(members)
            guard try await scope.execute(PostgresQuery(
                unsafeSQL: GroupSQL.advanceRead + " RETURNING 1", binds: Self.binds(groupId, reader, upTo))) > 0
            else { return .unchanged }
            try await scope.execute(PostgresQuery(
                unsafeSQL: GroupSQL.recordRead, binds: Self.binds(groupId, reader, upTo, at.millisecondsSince1970)))
            guard MessageRules.sendsReadReceipt(pendingRequest: try membership.value(3, as: Bool.self)) else { return .unchanged }
            return .marked(try await scope.appendEvents(userIds: members, type: EventType.messageRead, json: receipt, at: at))
        }
    }

    func groupReaders(groupId: Int64, viewer: Int64, messageId: Int64) async throws -> [GroupReader]? {
        try await read { scope in
            guard try await scope.row(
                PostgresQuery(unsafeSQL: GroupSQL.visibleMessage, binds: Self.binds(groupId, viewer, messageId))) != nil,
                let sender = try await scope.value("SELECT sender_id FROM messages WHERE id = \(messageId) AND group_id IS NOT NULL", as: Int64.self)
            else { return nil }
            return try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.readers, binds: Self.binds(groupId, messageId, sender))).map {
                GroupReader(
                    user: try Self.user(from: $0, at: 0, withViewerFields: false),
                    readAt: Timestamp(millisecondsSince1970: try $0.value(6)))
            }
        }
    }

    func groupMemberIds(groupId: Int64, viewer: Int64) async throws -> GroupAudience? {
        try await read { scope in
            guard let membership = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(groupId, viewer))),
                  try membership.value(0, as: Bool.self)
            else { return nil }
            let blockers = try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.blockersOfSender, binds: Self.binds(groupId, viewer)))
                .map { try $0.value(0, as: Int64.self) }
            return GroupAudience(
                members: try await Self.memberIds(scope, groupId: groupId), pendingRequest: try membership.value(3, as: Bool.self),
                blockers: Set(blockers))
        }
    }

    func changeGroupMessage(
        _ id: Int64, groupId: Int64, viewer: Int64, at: Timestamp, encoding: any MessageChangeEncoding,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome {
        try await write { scope in
            guard try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.lockGroup, binds: Self.binds(groupId))) != nil,
                  let membership = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(groupId, viewer))),
                  try membership.value(0, as: Bool.self)
            else { return .noSuchPeer }
            @Sendable func read() async throws -> Message? {
                try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.visibleMessage, binds: Self.binds(groupId, viewer, id)))
                    .map(Self.groupMessage(from:))
            }
            guard let message = try await read(),
                  let sender = try await scope.value("SELECT sender_id FROM messages WHERE id = \(id) AND group_id IS NOT NULL FOR UPDATE", as: Int64.self)
            else { return .noSuchMessage }
            guard let action = try GroupMessageAction.decide(message, senderId: sender, viewer: viewer, change) else {
                return .unchanged(message)
            }
            if case .update(let updated) = action.change {
                let editedAt = updated.editedAt?.millisecondsSince1970
                let reactions = encoding.reactionsColumn(updated.reactions)
                let words = SearchTerms.words(updated.text)
                try await scope.execute("""
                    UPDATE messages SET text = \(updated.text), edited_at = \(editedAt), reactions = \(reactions), search_words = \(words)
                    WHERE id = \(id) AND group_id IS NOT NULL
                    """)
            } else {
                try await Self.tombstoneGroupMessages(scope, where: "id = $1", id)
            }
            guard let stored = try await read() else { throw StorageError.inconsistent("group message \(id) is missing") }
            let deleted = action.change == .unsend ? try encoding.deleted(stored) : nil
            try await Self.appendGroupMessageEvents(scope, groupId: groupId, sender: sender, type: action.type, stored, at: at) {
                deleted ?? encoding.updated($0)
            }
            return .changed(stored, scope.appended)
        }
    }

    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws -> [Message]? {
        try await read { scope in
            if let group, try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(group, viewer))) == nil {
                return nil
            }
            guard !words.isEmpty else { return [] }
            return try await scope.rows(PostgresQuery(
                unsafeSQL: GroupSearch.query(where: GroupSearch.postgresCondition), binds: Self.binds(group ?? 0, viewer, before, Int64(limit), words)))
                .map(Self.groupMessage(from:))
        }
    }

    func groupConversations(
        viewer: Int64, before cursor: Int64, limit: Int, list: GroupConversationList, group: Int64?
    ) async throws -> [Listed<Conversation>] {
        try await read { scope in
            try await Self.groupConversations(scope, viewer: viewer, before: cursor, limit: limit, list: list, group: group)
        }
    }

    func directPinOrders(viewer: Int64) async throws -> [String: Int64] {
        try await read { scope in
            var orders: [String: Int64] = [:]
            for row in try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.directPinOrders, binds: Self.binds(viewer))) {
                orders[String(try row.value(0, as: Int64.self))] = try row.value(1, as: Int64.self)
            }
            return orders
        }
    }

    func markGroup(
        id: Int64, viewer: Int64, change: ConversationMarkChange, at: Timestamp, decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome {
        try await write { scope in
            // The viewer's row, as every writer of their stream (and of their pins) locks it.
            try await scope.lockUsers([viewer])
            guard let marks = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.groupMarks, binds: Self.binds(viewer, id)))
            else { return .noSuchPeer }
            guard let current = try await Self.groupConversation(scope, viewer: viewer, group: id) else { return .noSuchPeer }
            guard change.alters(pinned: try marks.value(0), muted: try marks.value(1)) else {
                return .done(WriteOutcome(value: (), created: false))
            }
            if change == .pin { try decisions.mayPin(pinnedElsewhere: Int(try marks.value(3, as: Int64.self))) }
            try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.markStatements[change]!, binds: Self.binds(viewer, id)))
            let conversation = try await Self.groupConversation(scope, viewer: viewer, group: id) ?? current
            try await scope.appendEvent(userId: viewer, type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            return .done(WriteOutcome(value: (), created: true, appended: scope.appended))
        }
    }

    // MARK: helpers

    /// Appends an event about a group message to every current member's stream (their rows
    /// locked first, in id order), its data `json(message)` with `fromBlocked` as each member
    /// sees it (true for those who blocked the sender).
    static func appendGroupMessageEvents(
        _ scope: PostgresScope, groupId: Int64, sender: Int64, type: String, _ message: Message, at: Timestamp,
        json: (Message) throws -> String
    ) async throws {
        let members = try await memberIds(scope, groupId: groupId)
        try await scope.lockUsers(members)
        let blockers = Set(try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.blockersOfSender, binds: binds(groupId, sender)))
            .map { try $0.value(0, as: Int64.self) })
        var plain = message
        plain.fromBlocked = false
        var hidden = message
        hidden.fromBlocked = true
        try await scope.appendEvents(userIds: members.filter { !blockers.contains($0) }, type: type, json: json(plain), at: at)
        try await scope.appendEvents(userIds: members.filter(blockers.contains), type: type, json: json(hidden), at: at)
    }

    /// The viewer's group conversations (`GroupSQL.conversations`), each with its cursor.
    static func groupConversations(
        _ scope: PostgresScope, viewer: Int64, before cursor: Int64, limit: Int, list: GroupConversationList, group: Int64?
    ) async throws -> [Listed<Conversation>] {
        let condition = list.condition + (group.map { " AND group_id = \($0)" } ?? "")
        var listed: [Listed<Conversation>] = []
        for row in try await scope.rows(PostgresQuery(
            unsafeSQL: GroupSQL.conversations(where: condition, orderBy: list.order), binds: binds(viewer, cursor, Int64(limit)))) {
            let groupId = try row.value(1, as: Int64.self)
            guard var group = try await storedGroup(scope, id: groupId)?.group else { continue }
            if try row.value(8, as: Bool.self) { group = FormerGroupColumn.decode(try row.value(9, as: String?.self), fallback: group) }
            var last: Message?
            if let lastId = try row.value(7, as: Int64?.self),
               let found = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.visibleMessage, binds: binds(groupId, viewer, lastId))) {
                last = try groupMessage(from: found)
            }
            let conversation = Conversation(
                peer: Conversation.noPeer, lastMessage: last, unreadCount: Int(try row.value(5, as: Int64.self)),
                kind: Conversation.groupKind, request: try row.value(2), pinned: try row.value(3), muted: try row.value(4),
                group: group)
            listed.append(Listed(cursor: try row.value(list == .pinned ? 6 : 0, as: Int64.self), item: conversation))
        }
        return listed
    }

    /// The next value of the one message id sequence, taken for a join mark (`GroupSQL.addMember`).
    static func nextMessageId(_ scope: PostgresScope) async throws -> Int64 {
        guard let id = try await scope.value("SELECT nextval(pg_get_serial_sequence('messages', 'id'))", as: Int64.self)
        else { throw StorageError.inconsistent("the message sequence gave no value") }
        return id
    }

    /// The viewer's conversation of one group, whichever list it is in.
    static func groupConversation(_ scope: PostgresScope, viewer: Int64, group: Int64) async throws -> Conversation? {
        for list in [GroupConversationList.listed, .requests, .pinned] {
            if let found = try await groupConversations(scope, viewer: viewer, before: Int64.max, limit: 1, list: list, group: group).first {
                return found.item
            }
        }
        return nil
    }

    /// The group with its current members, the creating call's key and whether it ended.
    static func storedGroup(_ scope: PostgresScope, id: Int64) async throws -> (group: Group, requestKey: String, ended: Bool)? {
        guard let row = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.group, binds: binds(id))) else { return nil }
        let members = try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.members, binds: binds(id))).map {
            GroupMember(
                user: try user(from: $0, at: 0, withViewerFields: false), role: GroupRole(rawValue: try $0.value(6)) ?? .member,
                joinedAt: Timestamp(millisecondsSince1970: try $0.value(7)))
        }
        let group = Group(
            id: String(id), title: try row.value(0), createdAt: Timestamp(millisecondsSince1970: try row.value(1)),
            createdBy: try row.value(2), members: members)
        return (group, try row.value(3), try row.value(4))
    }

    /// The current members of the group as its changes decide on them, longest-standing first.
    static func memberFacts(_ scope: PostgresScope, groupId: Int64) async throws -> [GroupMemberFacts] {
        try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.memberRoles, binds: binds(groupId))).map {
            GroupMemberFacts(userId: try $0.value(0), role: GroupRole(rawValue: try $0.value(1)) ?? .member, request: try $0.value(2))
        }
    }

    /// How many groups the user is a current member of.
    static func groupCount(_ scope: PostgresScope, userId: Int64) async throws -> Int {
        Int(try await scope.value(PostgresQuery(unsafeSQL: GroupSQL.groupCount, binds: binds(userId)), as: Int64.self) ?? 0)
    }

    static func memberIds(_ scope: PostgresScope, groupId: Int64) async throws -> [Int64] {
        try await scope.rows(PostgresQuery(unsafeSQL: GroupSQL.memberIds, binds: binds(groupId))).map { try $0.value(0) }
    }

    static func groupMessage(_ scope: PostgresScope, groupId: Int64, sender: Int64, clientMessageId: String) async throws -> Message? {
        try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.messageByClientId, binds: binds(groupId, sender, clientMessageId)))
            .map(groupMessage(from:))
    }

    /// Decodes the columns of `GroupSQL.messageColumns`.
    static func groupMessage(from row: PostgresRandomAccessRow) throws -> Message {
        Message(
            id: String(try row.value(0, as: Int64.self)), clientMessageId: try row.value(1), sender: try row.value(2), recipient: "",
            text: try row.value(3), createdAt: Timestamp(millisecondsSince1970: try row.value(4)), readByRecipient: false,
            deleted: try row.value(11), media: try row.value(11, as: Bool.self) ? [] : MediaJSON.decode(try row.value(12, as: String.self)),
            replyTo: try row.value(5, as: Int64?.self).map { String($0) },
            reactions: ReactionsColumn.decode(try row.value(10, as: String?.self)),
            editedAt: try row.value(9, as: Int64?.self).map(Timestamp.init(millisecondsSince1970:)),
            removedByOperators: try row.value(13), group: String(try row.value(6, as: Int64.self)),
            readCount: Int(try row.value(7, as: Int64.self)), fromBlocked: try row.value(8))
    }
}
