import ChirpModels
import GRDB

extension SQLiteStorage {
    func sendMessage(_ new: NewMessage) async throws -> WriteOutcome<Message> {
        try await write { db in
            let sender = new.sender
            let (recipient, recipientName, mayMessage) = try Self.recipient(db, named: new.recipient, sender: sender.id)
            // A retry of a message already stored is answered with it, even if sending it
            // again would now be refused.
            func replay() throws -> WriteOutcome<Message>? {
                guard let existing = try Self.fetchMessage(
                    db, where: "m.sender_id = ? AND m.client_message_id = ?", [sender.id, new.clientMessageId])
                else { return nil }
                guard existing.text == new.text, Validation.usernameKey(existing.recipient) == Validation.usernameKey(new.recipient) else {
                    throw APIError.clientMessageIdReused
                }
                return WriteOutcome(value: existing, created: false)
            }
            if recipient == sender.id {
                if let earlier = try replay() { return earlier }
                throw APIError(.unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot send a message to yourself.")
            }
            guard mayMessage else {
                if let earlier = try replay() { return earlier }
                throw APIError.dmNotAllowed(new.recipient)
            }
            // Insert first: the client id's uniqueness finds a retry without a lookup per send.
            try db.cachedStatement(sql: """
                INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sender_id, client_message_id) DO NOTHING
                """).execute(arguments: [
                    sender.id, recipient, min(sender.id, recipient), max(sender.id, recipient),
                    new.clientMessageId, new.text, new.createdAt.millisecondsSince1970,
                ])
            guard db.changesCount == 1 else {
                guard let earlier = try replay() else { throw APIError.clientMessageIdReused }
                return earlier
            }
            let messageId = db.lastInsertedRowID
            // Both sides' conversation rows in one statement: the recipient's gains an unread.
            try db.cachedStatement(sql: """
                INSERT INTO conversations (owner_id, peer_id, last_message_id, unread_count, has_received)
                VALUES (?1, ?2, ?3, 0, 0), (?2, ?1, ?3, 1, 1)
                ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                    last_message_id = excluded.last_message_id,
                    unread_count = unread_count + excluded.unread_count,
                    has_received = max(has_received, excluded.has_received)
                """).execute(arguments: [sender.id, recipient, messageId])
            let message = Message(
                id: String(messageId), clientMessageId: new.clientMessageId, sender: sender.username, recipient: recipientName,
                text: new.text, createdAt: new.createdAt, readByRecipient: false)
            let json = MessageJSON.encode(message)
            let appended = try Self.appendEvents(
                db, userIds: [sender.id, recipient], type: EventType.messageCreated, json: json, at: new.createdAt,
                messageId: messageId)
            return WriteOutcome(value: message, created: true, appended: appended, json: json)
        }
    }

    func message(sender: Int64, clientMessageId: String) async throws -> Message? {
        try await read { db in
            try Self.fetchMessage(db, where: "m.sender_id = ? AND m.client_message_id = ?", [sender, clientMessageId])
        }
    }

    func typingTarget(viewer: Viewer, peer: String) async throws -> Int64 {
        try await read { db in
            let (peerId, _, mayMessage) = try Self.recipient(db, named: peer, sender: viewer.id)
            if peerId == viewer.id {
                throw APIError(.unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot message yourself.")
            }
            guard mayMessage else { throw APIError.dmNotAllowed(peer) }
            return peerId
        }
    }

    func messages(viewer: Viewer, peer: String, limit: Int, before: Int64?, after: Int64?) async throws -> Page<Message> {
        try await read { db in
            let peerId = try Self.userId(db, username: peer)
            let lo = min(viewer.id, peerId), hi = max(viewer.id, peerId)
            let lower = after ?? 0, upper = before ?? Int64.max
            if after != nil {
                // The `limit` just newer than `after`, ascending; the cursor continues forwards.
                let found = try Self.fetchMessages(
                    db, where: "m.user_lo = ? AND m.user_hi = ? AND m.id > ? AND m.id < ? ORDER BY m.id ASC LIMIT ?",
                    [lo, hi, lower, upper, limit + 1])
                let more = found.count > limit
                let items = Array(found.prefix(limit))
                return Page(items: items, nextCursor: more ? items.last.map(\.id) : nil)
            }
            // The newest `limit` (older than `before`), returned ascending; the cursor goes back.
            let found = try Self.fetchMessages(
                db, where: "m.user_lo = ? AND m.user_hi = ? AND m.id > ? AND m.id < ? ORDER BY m.id DESC LIMIT ?",
                [lo, hi, lower, upper, limit + 1])
            let more = found.count > limit
            let items = Array(found.prefix(limit).reversed())
            return Page(items: items, nextCursor: more ? items.first.map(\.id) : nil)
        }
    }

    func conversations(viewer: Viewer, page: PageRequest) async throws -> Page<Conversation> {
        try await read { db in
            // One query: the conversation, its peer (with viewer fields) and its last message.
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT c.last_message_id, c.unread_count, \(Self.userColumns("u")), \(Self.messageColumns)
                        JOIN conversations c ON m.id = c.last_message_id
                        JOIN users u ON u.id = c.peer_id
                    WHERE c.owner_id = :viewer AND c.last_message_id < :cursor
                    ORDER BY c.last_message_id DESC LIMIT :limit
                    """),
                arguments: ["viewer": viewer.id, "cursor": page.cursor ?? Int64.max, "limit": page.limit + 1])
            let items = rows.map { row -> (cursor: Int64, conversation: Conversation) in
                let message = Self.message(from: row, at: 2 + Self.userColumnCount)
                return (row[0], Conversation(peer: Self.user(from: row, at: 2), lastMessage: message, unreadCount: row[1]))
            }
            return PageBuilder.newestFirst(items, limit: page.limit, cursor: \.cursor, item: \.conversation)
        }
    }

    func markRead(viewer: Viewer, peer: String, upTo: Int64, at: Timestamp) async throws -> WriteOutcome<Void> {
        try await write { db in
            let peerId = try Self.userId(db, username: peer)
            let lo = min(viewer.id, peerId), hi = max(viewer.id, peerId)
            guard try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM messages WHERE id = ? AND user_lo = ? AND user_hi = ?"),
                arguments: [upTo, lo, hi]) == true
            else {
                throw APIError(.notFound, APIErrorCode.messageNotFound, "There is no message \(upTo) in this conversation.", field: "upTo")
            }
            try db.cachedStatement(sql: """
                UPDATE messages SET read = 1
                WHERE user_lo = ? AND user_hi = ? AND sender_id = ? AND id <= ? AND read = 0
                """).execute(arguments: [lo, hi, peerId, upTo])
            guard db.changesCount > 0 else {
                return WriteOutcome(value: (), created: false)
            }
            try db.cachedStatement(sql: """
                UPDATE conversations SET unread_count = (
                    SELECT COUNT(*) FROM messages
                    WHERE user_lo = ? AND user_hi = ? AND sender_id = ? AND read = 0)
                WHERE owner_id = ? AND peer_id = ?
                """).execute(arguments: [lo, hi, peerId, viewer.id, peerId])
            let peerName = try String.fetchOne(db.cachedStatement(sql: "SELECT username FROM users WHERE id = ?"), arguments: [peerId])!
            let receipt = ReadReceipt(reader: viewer.username, peer: peerName, upTo: String(upTo))
            let appended = try Self.appendEvent(db, userId: peerId, type: EventType.messageRead, json: StoredEventJSON.encode(receipt), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    // MARK: helpers

    /// A message's recipient by name (ignoring case), or a 404, and whether `sender` may
    /// message them, in one statement. A user may message someone who follows them, or
    /// someone who has sent them a message.
    private static func recipient(
        _ db: Database, named username: String, sender: Int64
    ) throws -> (id: Int64, username: String, mayMessage: Bool) {
        guard Validation.isPossibleUsername(username),
              let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT u.id, u.username,
                        EXISTS (SELECT 1 FROM follows WHERE follower_id = u.id AND followee_id = ?2)
                        OR EXISTS (SELECT 1 FROM conversations WHERE owner_id = ?2 AND peer_id = u.id AND has_received = 1)
                    FROM users u WHERE u.username_key = ?1
                    """),
                arguments: [Validation.usernameKey(username), sender])
        else { throw APIError.userNotFound(username) }
        return (row[0], row[1], row[2])
    }

    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`.
    static var messageColumns: String { StorageSQL.messageColumns }

    static func fetchMessage(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> Message? {
        try fetchMessages(db, where: condition + " LIMIT 1", arguments).first
    }

    static func fetchMessages(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [Message] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(messageColumns) WHERE \(condition)"), arguments: arguments
        ).map { message(from: $0, at: 0) }
    }

    /// Decodes the columns of `messageColumns` starting at `index`.
    static func message(from row: Row, at index: Int) -> Message {
        let id: Int64 = row[index]
        return Message(
            id: String(id), clientMessageId: row[index + 1], sender: row[index + 2], recipient: row[index + 3], text: row[index + 4],
            createdAt: Timestamp(millisecondsSince1970: row[index + 5]), readByRecipient: row[index + 6])
    }
}
