import ChirpModels
import PostgresNIO

extension PostgresStorage {
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
