import ChirpModels
import PostgresNIO

extension PostgresStorage {
    /// Five round trips: BEGIN, lock both users, look for a replay and check the permission
    /// (reserving the new id), one statement that stores the message, both conversation rows,
    /// both events and the notification, COMMIT.
    func sendMessage(_ new: NewMessage) async throws -> WriteOutcome<Message> {
        try await write { scope in
            let sender = new.sender
            let key = Validation.usernameKey(new.recipient)
            guard Validation.isPossibleUsername(new.recipient) else { throw APIError.userNotFound(new.recipient) }
            // Both users locked first, in id order: a retried send arriving on two instances at
            // once, or two people writing to each other, queue here.
            let users = try await scope.rows("""
                SELECT id, username, username_key FROM users WHERE id = \(sender.id) OR username_key = \(key) ORDER BY id FOR UPDATE
                """)
            guard let recipientRow = try users.first(where: { try $0.value(2, as: String.self) == key }) else {
                throw APIError.userNotFound(new.recipient)
            }
            let recipient: Int64 = try recipientRow.value(0)
            let recipientName: String = try recipientRow.value(1)
            guard let check = try await scope.row("""
                SELECT (SELECT id FROM messages WHERE sender_id = \(sender.id) AND client_message_id = \(new.clientMessageId)),
                    \(unescaped: Self.mayMessage(sender: sender.id, recipient: recipient)),
                    nextval(pg_get_serial_sequence('messages', 'id'))
                """)
            else { throw APIError.userNotFound(new.recipient) }
            if let existingId = try check.value(0, as: Int64?.self) {
                let existing = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(existingId))[0]
                guard existing.text == new.text, Validation.usernameKey(existing.recipient) == key else {
                    throw APIError.clientMessageIdReused
                }
                return WriteOutcome(value: existing, created: false)
            }
            if recipient == sender.id {
                throw APIError(.unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot send a message to yourself.")
            }
            guard try check.value(1, as: Bool.self) else {
                throw APIError.dmNotAllowed(new.recipient)
            }
            let messageId: Int64 = try check.value(2)
            let message = Message(
                id: String(messageId), clientMessageId: new.clientMessageId, sender: sender.username, recipient: recipientName,
                text: new.text, createdAt: new.createdAt, readByRecipient: false)
            let json = MessageJSON.encode(message)
            let at = new.createdAt.millisecondsSince1970
            let type = EventType.messageCreated
            let payload = PostgresBusMessage(origin: instanceId, content: .wake(users: [sender.id, recipient].sorted())).payload
            let rows = try await scope.rows("""
                WITH m AS (
                    INSERT INTO messages (id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at)
                    VALUES (\(messageId), \(sender.id), \(recipient), \(min(sender.id, recipient)), \(max(sender.id, recipient)),
                            \(new.clientMessageId), \(new.text), \(at))),
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

    func typingTarget(viewer: Viewer, peer: String) async throws -> Int64 {
        try await read { scope in
            let peerId = try await Self.userId(scope, username: peer)
            if peerId == viewer.id {
                throw APIError(.unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot message yourself.")
            }
            try await Self.requireMayMessage(scope, sender: viewer.id, recipient: peerId, recipientName: peer)
            return peerId
        }
    }

    func messages(viewer: Viewer, peer: String, limit: Int, before: Int64?, after: Int64?) async throws -> Page<Message> {
        try await read { scope in
            let peerId = try await Self.userId(scope, username: peer)
            let lo = min(viewer.id, peerId), hi = max(viewer.id, peerId)
            let lower = after ?? 0, upper = before ?? Int64.max
            let order = after != nil ? "ASC" : "DESC"
            let found = try await Self.fetchMessages(
                scope, where: "m.user_lo = $1 AND m.user_hi = $2 AND m.id > $3 AND m.id < $4 ORDER BY m.id \(order) LIMIT $5",
                Self.binds(lo, hi, lower, upper, limit + 1))
            let more = found.count > limit
            if after != nil {
                // The `limit` just newer than `after`, ascending; the cursor continues forwards.
                let items = Array(found.prefix(limit))
                return Page(items: items, nextCursor: more ? items.last.map(\.id) : nil)
            }
            // The newest `limit` (older than `before`), returned ascending; the cursor goes back.
            let items = Array(found.prefix(limit).reversed())
            return Page(items: items, nextCursor: more ? items.first.map(\.id) : nil)
        }
    }

    func conversations(viewer: Viewer, page: PageRequest) async throws -> Page<Conversation> {
        try await read { scope in
            let rows = try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT c.last_message_id, c.unread_count, \(Self.userColumns("u", viewer: viewer.id)), \(Self.messageColumns)
                        JOIN conversations c ON m.id = c.last_message_id
                        JOIN users u ON u.id = c.peer_id
                    WHERE c.owner_id = $1 AND c.last_message_id < $2
                    ORDER BY c.last_message_id DESC LIMIT $3
                    """,
                binds: Self.binds(viewer.id, page.cursor ?? Int64.max, page.limit + 1)))
            let items = try rows.map { row -> (cursor: Int64, conversation: Conversation) in
                let message = try Self.message(from: row, at: 2 + Self.userColumnCount)
                return (
                    try row.value(0),
                    Conversation(peer: try Self.user(from: row, at: 2), lastMessage: message, unreadCount: try row.value(1)))
            }
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.cursor, item: \.conversation)
        }
    }

    func markRead(viewer: Viewer, peer: String, upTo: Int64, at: Timestamp) async throws -> WriteOutcome<Void> {
        try await write { scope in
            let peerId = try await Self.userId(scope, username: peer)
            let lo = min(viewer.id, peerId), hi = max(viewer.id, peerId)
            try await scope.lockUsers([viewer.id, peerId])
            guard try await scope.execute(
                "SELECT 1 FROM messages WHERE id = \(upTo) AND user_lo = \(lo) AND user_hi = \(hi)") > 0
            else {
                throw APIError(.notFound, APIErrorCode.messageNotFound, "There is no message \(upTo) in this conversation.", field: "upTo")
            }
            let changed = try await scope.execute("""
                UPDATE messages SET read = TRUE
                WHERE user_lo = \(lo) AND user_hi = \(hi) AND sender_id = \(peerId) AND id <= \(upTo) AND NOT read
                RETURNING 1
                """)
            guard changed > 0 else { return WriteOutcome(value: (), created: false) }
            try await scope.execute("""
                UPDATE conversations SET unread_count = (
                    SELECT COUNT(*) FROM messages
                    WHERE user_lo = \(lo) AND user_hi = \(hi) AND sender_id = \(peerId) AND NOT read)
                WHERE owner_id = \(viewer.id) AND peer_id = \(peerId)
                """)
            let peerName = try await scope.value("SELECT username FROM users WHERE id = \(peerId)", as: String.self) ?? peer
            let receipt = ReadReceipt(reader: viewer.username, peer: peerName, upTo: String(upTo))
            try await scope.appendEvent(userId: peerId, type: EventType.messageRead, json: StoredEventJSON.encode(receipt), at: at)
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }

    // MARK: helpers

    /// A user may message someone who follows them, or someone who has sent them a message.
    private static func requireMayMessage(_ scope: PostgresScope, sender: Int64, recipient: Int64, recipientName: String) async throws {
        let allowed = try await scope.value(
            "SELECT \(unescaped: mayMessage(sender: sender, recipient: recipient))", as: Bool.self) ?? false
        guard allowed else {
            throw APIError.dmNotAllowed(recipientName)
        }
    }

    /// The DM rule as an SQL condition: the recipient follows the sender, or has written to
    /// them. (The ids are integers, so writing them into the SQL is safe.)
    static func mayMessage(sender: Int64, recipient: Int64) -> String {
        """
        (EXISTS (SELECT 1 FROM follows WHERE follower_id = \(recipient) AND followee_id = \(sender))
         OR EXISTS (SELECT 1 FROM conversations WHERE owner_id = \(sender) AND peer_id = \(recipient) AND has_received))
        """
    }

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
            createdAt: Timestamp(millisecondsSince1970: try row.value(index + 5)), readByRecipient: try row.value(index + 6))
    }
}
