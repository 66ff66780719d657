import ChirpModels
import PostgresNIO

extension PostgresStorage {
    /// Locks the rows of the groups user `userId` is a current member of, in id order (a
    /// group's row before any user's, as every group write), and returns their ids.
    static func lockGroups(_ scope: PostgresScope, ofMember userId: Int64) async throws -> [Int64] {
        try await scope.rows(
            PostgresQuery(
                unsafeSQL: "SELECT id FROM chat_groups WHERE id IN (\(GroupSQL.groupsOfMember)) ORDER BY id FOR UPDATE",
                binds: binds(userId))
        ).map { try $0.value(0, as: Int64.self) }
    }

    /// Account deletion's part in groups, inside its transaction (`groups` locked first,
    /// `lockGroups`): the user's group messages become tombstones (their events are read from
    /// the rows, under the account's new name); the user leaves each of `groups` as a leave does (`GroupChange.accountDeleted`),
    /// the members who stay told with `group.updated`; their pins and mutes of groups go.
    static func deleteGroupPart(
        _ scope: PostgresScope, userId: Int64, groups: [Int64], at: Timestamp,
        decisions: some GroupDecisions
    ) async throws {
        try await tombstoneGroupMessages(scope, where: "sender_id = $1", userId)
        try await scope.execute(PostgresQuery(unsafeSQL: GroupSQL.forgetMarks, binds: binds(userId)))
        _ = try await scope.leaveGroups(groups, userId: userId, at: at, decisions: decisions)
    }

    /// Takes group message `id` down (`ModerationStore.takeDown`): a tombstone marked
    /// `removedByOperators` wherever it is stored, `message.deleted` to every current member
    /// (`notice`), an entry in the audit log; nil when there is no such group message. The
    /// group's row is locked first, as every group write locks it.
    static func takeDownGroupMessage(
        _ scope: PostgresScope, id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding
    ) async throws -> WriteOutcome<Message>? {
        guard let ids = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.messageGroupAndSender, binds: binds(id)))
        else { return nil }
        let groupId = try ids.value(0, as: Int64.self)
        let sender = try ids.value(1, as: Int64.self)
        guard try await scope.lockGroup(groupId),
            let row = try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.messageById, binds: binds(id, sender)))
        else { return nil }
        let message = try MessageColumns.message(from: row)
        guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
        let takenDown = message.tombstone(byOperators: true)
        try await tombstoneGroupMessages(scope, where: "id = $1", id, byOperators: true)
        let notice = try encoding.deleted(takenDown)
        try await scope.appendGroupMessageEvents(
            groupId: groupId, sender: sender, type: EventType.messageDeleted, takenDown, at: at
        ) { _ in notice }
        try await audit(
            scope, actor, .removeMessage, target: message.id, detail: "\(message.sender) in group \(groupId)", at: at)
        return WriteOutcome(value: takenDown, created: true, appended: scope.appended)
    }

    /// Makes the group messages matching `messages` (a condition on `messages` over `$1`,
    /// `argument`) tombstones: no text, media, reactions or search words; `byOperators` marks
    /// them taken down. Their events are built from the rows (`StoredEventData.message`).
    static func tombstoneGroupMessages(
        _ scope: PostgresScope, where messages: String, _ argument: Int64, byOperators: Bool = false
    ) async throws {
        try await scope.execute(
            PostgresQuery(
                unsafeSQL: GroupSQL.tombstone(
                    where: messages, byOperators: byOperators, alsoClear: ", search_words = '{}'"),
                binds: Self.binds(argument)))
    }

    func sendGroupMessage(_ new: NewGroupMessage, decisions: some GroupDecisions) async throws -> WriteOutcome<Message>?
    {
        try await write { scope in
            let sender = new.sender
            // The group's row, then its members' in id order: the membership cannot change under
            // the send, and every member's stream gets its event gap-free.
            guard
                try await scope.lockGroup(new.groupId),
                let membership = try await scope.row(
                    PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(new.groupId, sender.id))),
                try membership.value(0, as: Bool.self)
            else { return nil }
            if let existing = try await scope.queryRow(
                GroupSQL.messageByClientId, new.groupId, sender.id, new.clientMessageId
            ).map(MessageColumns.message(from:)) {
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            try decisions.mayStore(new, encrypted: try membership.value(4, as: Bool.self))
            let envelope = new.envelopeJSON
            guard
                let id = try await scope.value(
                    """
                    INSERT INTO messages (id, group_id, sender_id, client_message_id, text, created_at, reply_to, media_json, search_words, envelope)
                    VALUES (nextval(pg_get_serial_sequence('messages', 'id')), \(new.groupId), \(sender.id), \(new.clientMessageId),
                        \(new.text), \(new.createdAt.millisecondsSince1970), \(new.replyTo), \(new.mediaJSON),
                        \(SearchTerms.words(new.text)), \(envelope))
                    RETURNING id
                    """, as: Int64.self)
            else { throw StorageError.inconsistent("a group message insert returned no id") }
            for (position, item) in new.media.enumerated() {
                guard let mediaId = Int64(item.id) else {
                    throw StorageError.inconsistent("media id \(item.id) is not a number")
                }
                try await scope.execute(
                    PostgresQuery(unsafeSQL: GroupSQL.attachMedia, binds: Self.binds(id, Int32(position), mediaId)))
            }
            let message = Message(
                id: String(id), clientMessageId: new.clientMessageId, sender: sender.username, recipient: "",
                text: new.text,
                createdAt: new.createdAt, readByRecipient: false, media: new.media,
                replyTo: new.replyTo.map { String($0) },
                group: String(new.groupId), envelope: new.envelope)
            let json = decisions.encode(message)
            try await scope.appendGroupMessageEvents(
                groupId: new.groupId, sender: sender.id, type: EventType.messageCreated, message, at: new.createdAt
            ) { $0.fromBlocked ? decisions.encode($0) : json }
            return WriteOutcome(value: message, created: true, appended: scope.appended, json: json)
        }
    }

    func changeGroupMessage(
        _ id: Int64, groupId: Int64, viewer: Int64, at: Timestamp, encoding: any MessageChangeEncoding,
        decide: @escaping @Sendable (_ message: Message, _ senderId: Int64) throws -> GroupMessageAction?
    ) async throws -> MessageChangeOutcome {
        try await write { scope in
            guard try await scope.lockGroup(groupId),
                let membership = try await scope.row(
                    PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(groupId, viewer))),
                try membership.value(0, as: Bool.self)
            else { return .noSuchPeer }
            @Sendable func read() async throws -> Message? {
                try await scope.row(
                    PostgresQuery(unsafeSQL: GroupSQL.visibleMessage, binds: Self.binds(groupId, viewer, id))
                )
                .map(MessageColumns.message(from:))
            }
            guard let message = try await read(),
                let sender = try await scope.value(
                    "SELECT sender_id FROM messages WHERE id = \(id) AND group_id IS NOT NULL FOR UPDATE",
                    as: Int64.self)
            else { return .noSuchMessage }
            guard let action = try decide(message, sender) else {
                return .unchanged(message)
            }
            if case .update(let updated) = action.change {
                let editedAt = updated.editedAt?.millisecondsSince1970
                let reactions = encoding.reactionsColumn(updated.reactions)
                let words = SearchTerms.words(updated.text)
                let envelope = try EnvelopeColumn.encode(updated.envelope)
                try await scope.execute(
                    """
                    UPDATE messages SET text = \(updated.text), edited_at = \(editedAt), reactions = \(reactions), search_words = \(words),
                        envelope = \(envelope)
                    WHERE id = \(id) AND group_id IS NOT NULL
                    """)
            } else {
                try await Self.tombstoneGroupMessages(scope, where: "id = $1", id)
            }
            guard let stored = try await read() else {
                throw StorageError.inconsistent("group message \(id) is missing")
            }
            let deleted = action.change == .unsend ? try encoding.deleted(stored) : nil
            try await scope.appendGroupMessageEvents(
                groupId: groupId, sender: sender, type: action.type, stored, at: at
            ) {
                deleted ?? encoding.updated($0)
            }
            return .changed(stored, scope.appended)
        }
    }

    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { scope in
            if let group,
                try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(group, viewer)))
                    == nil
            {
                return nil
            }
            guard !words.isEmpty else { return [] }
            return try await scope.rows(
                PostgresQuery(
                    unsafeSQL: GroupSearch.query(where: GroupSearch.postgresCondition),
                    binds: Self.binds(group ?? 0, viewer, before, Int64(limit), words))
            )
            .map(MessageColumns.message(from:))
        }
    }

    // MARK: helpers

    /// The next value of the one message id sequence, taken for a join mark (`GroupSQL.addMember`).
    static func nextMessageId(_ scope: PostgresScope) async throws -> Int64 {
        guard let id = try await scope.value("SELECT nextval(pg_get_serial_sequence('messages', 'id'))", as: Int64.self)
        else { throw StorageError.inconsistent("the message sequence gave no value") }
        return id
    }

}
