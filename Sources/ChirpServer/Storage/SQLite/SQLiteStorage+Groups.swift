import ChirpModels
import GRDB

extension SQLiteStorage {
    /// Account deletion's part in groups, inside its transaction: the user's group messages
    /// become tombstones (their events are read from the rows, under the account's new name);
    /// the user leaves every group as a leave does (`GroupChange.accountDeleted`), the members who stay told with
    /// `group.updated`; their pins and mutes of groups go.
    static func deleteGroupPart(
        _ db: Database, userId: Int64, at: Timestamp, decisions: some GroupDecisions
    ) throws -> [AppendedEvent] {
        try tombstoneGroupMessages(db, where: "sender_id = $1", userId)
        try db.cachedStatement(sql: sharedSQL(GroupSQL.forgetMarks)).execute(arguments: [userId])
        let groups = try Int64.fetchAll(
            db.cachedStatement(sql: sharedSQL(GroupSQL.groupsOfMember)), arguments: [userId])
        let scope = SQLiteScope(db: db)
        return try InlineTaskRunner.run {
            try await scope.leaveGroups(groups, userId: userId, at: at, decisions: decisions)
        }
    }

    /// Takes group message `id` down (`ModerationStore.takeDown`): a tombstone marked
    /// `removedByOperators` wherever it is stored, `message.deleted` to every current member
    /// (`notice`), an entry in the audit log; nil when there is no such group message.
    static func takeDownGroupMessage(
        _ db: Database, id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding
    ) throws -> WriteOutcome<Message>? {
        guard
            let ids = try Row.fetchOne(
                db.cachedStatement(sql: sharedSQL(GroupSQL.messageGroupAndSender)), arguments: [id]),
            let row = try Row.fetchOne(
                db.cachedStatement(sql: sharedSQL(GroupSQL.messageById)), arguments: [id, ids[1]])
        else { return nil }
        let message = try MessageColumns.message(from: row)
        guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
        let groupId: Int64 = ids[0]
        let sender: Int64 = ids[1]
        let takenDown = message.tombstone(byOperators: true)
        try tombstoneGroupMessages(db, where: "id = $1", id, byOperators: true)
        let notice = try encoding.deleted(takenDown)
        let appended = try Self.appendGroupMessageEvents(
            db, groupId: groupId, sender: sender, type: EventType.messageDeleted, takenDown, at: at
        ) { _ in notice }
        try audit(
            db, actor, .removeMessage, target: message.id, detail: "\(message.sender) in group \(groupId)", at: at)
        return WriteOutcome(value: takenDown, created: true, appended: appended)
    }

    /// Makes the group messages matching `messages` (a condition on `messages` over `$1`,
    /// `argument`) tombstones: no text, media or reactions, out of the search index;
    /// `byOperators` marks them taken down. Their events are built from the rows
    /// (`StoredEventData.message`): nothing else to change.
    static func tombstoneGroupMessages(
        _ db: Database, where messages: String, _ argument: Int64, byOperators: Bool = false
    ) throws {
        // Out of the search index, with the text they were indexed with (those above its mark
        // are read by the indexer as tombstones, and skipped).
        for entry in try SQLiteMessageSearch.groupEntries(db, where: sharedSQL(messages), [argument]) {
            try entry.remove(from: db)
        }
        try db.cachedStatement(sql: sharedSQL(GroupSQL.tombstone(where: messages, byOperators: byOperators))).execute(
            arguments: [argument])
    }

    func sendGroupMessage(_ new: NewGroupMessage, decisions: some GroupDecisions) async throws -> WriteOutcome<Message>?
    {
        let indexer = searchIndexer
        return try await write { db in
            let sender = new.sender
            guard
                let membership = try Row.fetchOne(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSQL.membership)), arguments: [new.groupId, sender.id]),
                membership[0] as Bool
            else { return nil }
            if let existing = try Row.fetchOne(
                db.cachedStatement(sql: Self.sharedSQL(GroupSQL.messageByClientId)),
                arguments: [new.groupId, sender.id, new.clientMessageId]
            ).map(MessageColumns.message(from:)) {
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            try decisions.mayStore(new, encrypted: membership["encrypted"])
            let id = try Self.nextMessageId(db)
            try db.cachedStatement(
                sql: """
                    INSERT INTO messages (id, group_id, sender_id, client_message_id, text, created_at, reply_to, media_json, envelope)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                id, new.groupId, sender.id, new.clientMessageId, new.text, new.createdAt.millisecondsSince1970,
                new.replyTo,
                new.mediaJSON, new.envelopeJSON,
            ])
            // Indexed for search after, as a direct send (`SQLiteSearchIndexer`).
            indexer?.noteStored()
            for (position, item) in new.media.enumerated() {
                try db.cachedStatement(sql: Self.sharedSQL(GroupSQL.attachMedia)).execute(arguments: [
                    id, position, Int64(item.id),
                ])
            }
            let message = Message(
                id: String(id), clientMessageId: new.clientMessageId, sender: sender.username, recipient: "",
                text: new.text,
                createdAt: new.createdAt, readByRecipient: false, media: new.media,
                replyTo: new.replyTo.map { String($0) },
                group: String(new.groupId), envelope: new.envelope)
            let json = decisions.encode(message)
            let appended = try Self.appendGroupMessageEvents(
                db, groupId: new.groupId, sender: sender.id, type: EventType.messageCreated, message, at: new.createdAt
            ) { $0.fromBlocked ? decisions.encode($0) : json }
            return WriteOutcome(value: message, created: true, appended: appended, json: json)
        }
    }

    func changeGroupMessage(
        _ id: Int64, groupId: Int64, viewer: Int64, at: Timestamp, encoding: any MessageChangeEncoding,
        decide: @escaping @Sendable (_ message: Message, _ senderId: Int64) throws -> GroupMessageAction?
    ) async throws -> MessageChangeOutcome {
        try await write { db in
            guard
                let membership = try Row.fetchOne(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSQL.membership)), arguments: [groupId, viewer]),
                membership[0] as Bool
            else { return .noSuchPeer }
            func read() throws -> Message? {
                try Row.fetchOne(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSQL.visibleMessage)), arguments: [groupId, viewer, id]
                )
                .map(MessageColumns.message(from:))
            }
            guard let message = try read(),
                let sender = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT sender_id FROM messages WHERE id = ? AND group_id IS NOT NULL"),
                    arguments: [id])
            else { return .noSuchMessage }
            guard let action = try decide(message, sender) else {
                return .unchanged(message)
            }
            if case .update(let updated) = action.change {
                // In the index (at or below its mark) with the text it had: indexed again.
                let indexed = try SQLiteMessageSearch.groupEntries(db, where: "id = ?", [id])
                try db.cachedStatement(sql: Self.sharedSQL(GroupSQL.updateMessage)).execute(arguments: [
                    id, updated.text, updated.editedAt?.millisecondsSince1970,
                    encoding.reactionsColumn(updated.reactions), try EnvelopeColumn.encode(updated.envelope),
                ])
                if updated.text != message.text {
                    for entry in indexed {
                        try entry.remove(from: db)
                        try SQLiteMessageSearch.add(db, messageId: id, text: updated.text, owner: entry.owner)
                    }
                }
            } else {
                try Self.tombstoneGroupMessages(db, where: "id = $1", id)
            }
            guard let stored = try read() else { throw StorageError.inconsistent("group message \(id) is missing") }
            let deleted = action.change == .unsend ? try encoding.deleted(stored) : nil
            let appended = try Self.appendGroupMessageEvents(
                db, groupId: groupId, sender: sender, type: action.type, stored, at: at
            ) {
                deleted ?? encoding.updated($0)
            }
            return .changed(stored, appended)
        }
    }

    /// As direct search (`searchMessages`): the few messages above the index's mark read from
    /// `messages` and matched here, then the index's answer for the viewer's groups, in one read.
    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { db in
            if let group,
                try Row.fetchOne(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSQL.membership)), arguments: [group, viewer]) == nil
            {
                return nil
            }
            let groups =
                try group.map { [$0] }
                ?? Int64.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.viewerGroups)), arguments: [viewer])
            guard !words.isEmpty, !groups.isEmpty else { return [] }
            return try SQLiteMessageSearch.search(db, words: words, before: before, limit: limit) { mark in
                try Row.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.query(where: GroupSearch.aboveMarkCondition))),
                    arguments: [group ?? 0, viewer, before, -1, mark]
                ).map(MessageColumns.message(from:))
            } indexed: { below, remaining in
                try Row.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.query(where: GroupSearch.indexedCondition))),
                    arguments: [
                        group ?? 0, viewer, below, remaining,
                        SQLiteMessageSearch.groupMatch(words: words, groups: groups),
                    ]
                ).map(MessageColumns.message(from:))
            }
        }
    }

    // MARK: helpers

    /// `StorageScope.appendGroupMessageEvents` from this engine's synchronous code on `db`.
    static func appendGroupMessageEvents(
        _ db: Database, groupId: Int64, sender: Int64, type: String, _ message: Message, at: Timestamp,
        json: @escaping @Sendable (Message) throws -> String
    ) throws -> [AppendedEvent] {
        let scope = SQLiteScope(db: db)
        return try InlineTaskRunner.run {
            try await scope.appendGroupMessageEvents(
                groupId: groupId, sender: sender, type: type, message, at: at, json: json)
        }
    }

    /// The next id of the one message sequence (direct messages' `AUTOINCREMENT`), taken for a
    /// group message or a join mark (`GroupSQL.addMember`): a direct send after it gets a larger one.
    static func nextMessageId(_ db: Database) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', (SELECT COALESCE(MAX(id), 0) FROM messages)
                WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages')
                """
        ).execute()
        try db.cachedStatement(sql: "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'messages'").execute()
        guard
            let id = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'messages'"))
        else { throw StorageError.inconsistent("the message sequence is missing") }
        return id
    }

}
