import ChirpModels
import GRDB

extension SQLiteStorage {
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
