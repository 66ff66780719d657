import ChirpModels
import PostgresNIO

extension PostgresStorage {
    /// Group commit: the send goes into the next batch of concurrent sends, written in one
    /// transaction (`sendBatch`), and returns after that commit.
    func sendMessage(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message> {
        try await sends.submit(PendingSend(new: new, decisions: decisions)) { [self] batch in await sendBatch(batch) }
    }

    /// One send in a transaction of its own (a batch whose statement failed sends each alone).
    /// Five round trips: BEGIN, lock both users, the recipient's facts (blocks included) with any earlier
    /// message under this client id (reserving the new id), one statement that stores the
    /// message, both conversation rows, both events and the notification, COMMIT. (A retry
    /// reads its earlier message in one more.)
    func sendAlone(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message> {
        try await write { scope in
            let sender = new.sender
            let key = new.recipientKey
            // Both users locked first, in id order: a retried send arriving on two instances at
            // once, or two people writing to each other, queue here.
            let users = try await scope.rows("""
                SELECT id, username, username_key FROM users WHERE id = \(sender.id) OR username_key = \(key) ORDER BY id FOR UPDATE
                """)
            guard let recipientRow = try users.first(where: { try $0.value(2, as: String.self) == key }) else {
                _ = try decisions.decide(nil, for: new, earlier: { nil })
                throw StorageError.inconsistent("a send was allowed to a recipient that does not exist")
            }
            let recipient: Int64 = try recipientRow.value(0)
            guard let check = try await scope.row("""
                SELECT (SELECT id FROM messages WHERE sender_id = \(sender.id) AND client_message_id = \(new.clientMessageId)),
                    EXISTS (SELECT 1 FROM follows WHERE follower_id = \(recipient) AND followee_id = \(sender.id)),
                    EXISTS (SELECT 1 FROM conversations WHERE owner_id = \(sender.id) AND peer_id = \(recipient) AND has_received),
                    nextval(pg_get_serial_sequence('messages', 'id')),
                    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(recipient) AND blocked_id = \(sender.id)),
                    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(sender.id) AND blocked_id = \(recipient))
                """)
            else { throw StorageError.inconsistent("the send's check returned no row") }
            let facts = RecipientFacts(
                id: recipient, username: try recipientRow.value(1),
                followsSender: try check.value(1), hasWrittenToSender: try check.value(2),
                blockedSender: try check.value(4), blockedBySender: try check.value(5))
            let existing: Message?
            if let existingId = try check.value(0, as: Int64?.self) {
                existing = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(existingId)).first
            } else {
                existing = nil
            }
            if case .replay(let earlier) = try decisions.decide(facts, for: new, earlier: { existing }) {
                return WriteOutcome(value: earlier, created: false)
            }
            if let existing {
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            let messageId: Int64 = try check.value(3)
            let message = Message(
                id: String(messageId), clientMessageId: new.clientMessageId, sender: sender.username, recipient: facts.username,
                text: new.text, createdAt: new.createdAt, readByRecipient: false, media: new.media, replyTo: new.replyTo.map { String($0) })
            let json = decisions.encode(message)
            let at = new.createdAt.millisecondsSince1970
            let terms = SearchTerms.indexed(new.text)
            let mediaIds = new.media.compactMap { Int64($0.id) }
            let type = EventType.messageCreated
            let payload = PostgresBusMessage(origin: instanceId, content: .wake(users: [sender.id, recipient].sorted())).payload
            let rows = try await scope.rows("""
                WITH m AS (
                    INSERT INTO messages (
                        id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, reply_to, search_words,
                        media_json)
                    VALUES (\(messageId), \(sender.id), \(recipient), \(min(sender.id, recipient)), \(max(sender.id, recipient)),
                            \(new.clientMessageId), \(new.text), \(at), \(new.replyTo), string_to_array(\(terms), ' '),
                            \(MediaJSON.encode(new.media)))),
                mm AS (
                    INSERT INTO message_media (message_id, position, media_id)
                    SELECT \(messageId), ord - 1, media_id FROM unnest(\(mediaIds)::int8[]) WITH ORDINALITY AS t(media_id, ord)),
                own AS (
                    INSERT INTO conversations (owner_id, peer_id, last_message_id) VALUES (\(sender.id), \(recipient), \(messageId))
                    ON CONFLICT (owner_id, peer_id) DO UPDATE SET last_message_id = excluded.last_message_id),
                theirs AS (
                    INSERT INTO conversations (owner_id, peer_id, last_message_id, unread_count, has_received)
                    VALUES (\(recipient), \(sender.id), \(messageId), 1, TRUE)
                    ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                        last_message_id = excluded.last_message_id,
                        unread_count = conversations.unread_count + 1, has_received = TRUE),
                seqs AS (
                    UPDATE users SET last_seq = last_seq + 1 WHERE id IN (\(sender.id), \(recipient)) RETURNING id, last_seq),
                appended AS (
                    INSERT INTO events (user_id, seq, type, created_at, data)
                    SELECT id, last_seq, \(type), \(at), \(json) FROM seqs RETURNING user_id, seq)
                SELECT user_id, seq, pg_notify(\(Self.channel), \(payload))::text FROM appended
                """)
            let appended = try rows.map {
                AppendedEvent(
                    userId: try $0.value(0), event: StoredEvent(seq: try $0.value(1), type: type, createdAt: new.createdAt, json: json))
            }
            // Sender first, as SQLite orders them.
            scope.record(appended.sorted { ($0.userId == sender.id ? 0 : 1) < ($1.userId == sender.id ? 0 : 1) }, notified: true)
            return WriteOutcome(value: message, created: true, appended: scope.appended, json: json)
        }
    }

    func message(sender: Int64, clientMessageId: String) async throws -> Message? {
        try await read { scope in
            try await Self.fetchMessages(
                scope, where: "m.sender_id = $1 AND m.client_message_id = $2 LIMIT 1", Self.binds(sender, clientMessageId)).first
        }
    }

    func recipientFacts(sender: Int64, recipientKey: String) async throws -> RecipientFacts? {
        try await read { scope in
            try await scope.row("""
                SELECT u.id, u.username,
                    EXISTS (SELECT 1 FROM follows WHERE follower_id = u.id AND followee_id = \(sender)),
                    EXISTS (SELECT 1 FROM conversations WHERE owner_id = \(sender) AND peer_id = u.id AND has_received),
                    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = u.id AND blocked_id = \(sender)),
                    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(sender) AND blocked_id = u.id)
                FROM users u WHERE u.username_key = \(recipientKey)
                """
            ).map {
                RecipientFacts(
                    id: try $0.value(0), username: try $0.value(1), followsSender: try $0.value(2), hasWrittenToSender: try $0.value(3),
                    blockedSender: try $0.value(4), blockedBySender: try $0.value(5))
            }
        }
    }

    func messages(
        viewer: Int64, peerKey: String, after: Int64, before: Int64, ascending: Bool, limit: Int
    ) async throws -> [Message]? {
        try await read { scope in
            guard let peerId = try await Self.userId(scope, key: peerKey) else { return nil }
            let binds = Self.binds(min(viewer, peerId), max(viewer, peerId), after, before, limit)
            let rows = ascending
                ? try await scope.rows(PreparedQuery(MessagePageAscending.self, binds))
                : try await scope.rows(PreparedQuery(MessagePageDescending.self, binds))
            return try rows.map { try Self.message(from: $0, at: 0) }
        }
    }

    func conversations(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Conversation>] {
        try await read { scope in
            let rows = try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT c.last_message_id, c.unread_count, \(Self.userColumns("u", viewer: viewer)), \(Self.messageColumns)
                        JOIN conversations c ON m.id = c.last_message_id
                        JOIN users u ON u.id = c.peer_id
                    WHERE c.owner_id = $1 AND c.last_message_id < $2 AND u.deleted_at IS NULL
                        AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = $1 AND blocked_id = c.peer_id)
                    ORDER BY c.last_message_id DESC LIMIT $3
                    """,
                binds: Self.binds(viewer, cursor, limit)))
            return try rows.map { row in
                let message = try Self.message(from: row, at: 2 + Self.userColumnCount)
                return Listed(
                    cursor: try row.value(0),
                    item: Conversation(peer: try Self.user(from: row, at: 2), lastMessage: message, unreadCount: try row.value(1)))
            }
        }
    }

    func markRead(
        reader: Int64, peerKey: String, upTo: Int64, at: Timestamp, receipt: @escaping @Sendable (String) throws -> String
    ) async throws -> MarkReadOutcome {
        try await write { scope in
            guard let peerId = try await Self.userId(scope, key: peerKey) else { return .noSuchPeer }
            let lo = min(reader, peerId), hi = max(reader, peerId)
            try await scope.lockUsers([reader, peerId])
            guard try await scope.execute(
                "SELECT 1 FROM messages WHERE id = \(upTo) AND user_lo = \(lo) AND user_hi = \(hi)") > 0
            else { return .noSuchMessage }
            let changed = try await scope.execute("""
                UPDATE messages SET read = TRUE
                WHERE user_lo = \(lo) AND user_hi = \(hi) AND sender_id = \(peerId) AND id <= \(upTo) AND NOT read
                RETURNING 1
                """)
            guard changed > 0 else { return .unchanged }
            try await scope.execute("""
                UPDATE conversations SET unread_count = (
                    SELECT COUNT(*) FROM messages
                    WHERE user_lo = \(lo) AND user_hi = \(hi) AND sender_id = \(peerId) AND NOT read)
                WHERE owner_id = \(reader) AND peer_id = \(peerId)
                """)
            guard let peerName = try await scope.value("SELECT username FROM users WHERE id = \(peerId)", as: String.self) else {
                throw StorageError.inconsistent("user \(peerId) is missing")
            }
            try await scope.appendEvent(userId: peerId, type: EventType.messageRead, json: receipt(peerName), at: at)
            return .marked(scope.appended)
        }
    }

    // MARK: helpers

    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`.
    static var messageColumns: String { StorageSQL.messageColumns }

    static func fetchMessages(_ scope: PostgresScope, where condition: String, _ binds: PostgresBindings) async throws -> [Message] {
        try await scope.rows(PostgresQuery(unsafeSQL: "SELECT \(messageColumns) WHERE \(condition)", binds: binds))
            .map { try message(from: $0, at: 0) }
    }

    /// Decodes the columns of `messageColumns` starting at `index`.
    static func message(from row: PostgresRandomAccessRow, at index: Int) throws -> Message {
        Message(
            id: String(try row.value(index, as: Int64.self)), clientMessageId: try row.value(index + 1),
            sender: try row.value(index + 2), recipient: try row.value(index + 3), text: try row.value(index + 4),
            createdAt: Timestamp(millisecondsSince1970: try row.value(index + 5)), readByRecipient: try row.value(index + 6),
            deleted: try row.value(index + 7),
            media: try row.value(index + 7, as: Bool.self) ? [] : MediaJSON.decode(try row.value(index + 11, as: String.self)),
            replyTo: try row.value(index + 8, as: Int64?.self).map { String($0) },
            reactions: ReactionsColumn.decode(try row.value(index + 10, as: String?.self)),
            editedAt: try row.value(index + 9, as: Int64?.self).map(Timestamp.init(millisecondsSince1970:)))
    }
}

/// A page of a conversation, oldest first: the pair (`$1` < `$2`), ids between `$3` and `$4`,
/// at most `$5`.
private enum MessagePageAscending: PreparedSQL {
    static let sql = "SELECT \(StorageSQL.messageColumns) WHERE \(MessagePageDescending.condition) ORDER BY m.id ASC LIMIT $5"
}

/// A page of a conversation, newest first (parameters as `MessagePageAscending`).
private enum MessagePageDescending: PreparedSQL {
    static let condition = "m.user_lo = $1 AND m.user_hi = $2 AND m.id > $3 AND m.id < $4"
    static let sql = "SELECT \(StorageSQL.messageColumns) WHERE \(condition) ORDER BY m.id DESC LIMIT $5"
}
