import ChirpModels
import PostgresNIO

/// One send waiting for the next batch, with what its insert needs that can be worked out
/// before it: on the request's task, not in the batch's transaction while its users are locked.
struct PendingSend: Sendable {
    let new: NewMessage
    let decisions: any SendDecisions
    /// The text's `SearchTerms`, space-separated.
    let searchTerms: String
    /// The media as the `media_json` column holds them.
    let mediaJSON: String

    init(new: NewMessage, decisions: any SendDecisions) {
        self.new = new
        self.decisions = decisions
        searchTerms = SearchTerms.indexed(new.text)
        mediaJSON = MediaJSON.encode(new.media)
    }
}

extension PostgresStorage {
    /// Writes a batch of sends in one transaction of five round trips whatever its size: BEGIN,
    /// lock every user of the batch in id order, read every send's facts (and earlier message
    /// under its client id, reserving ids), one statement that stores every allowed message,
    /// both sides' conversation rows, all events and the notification, COMMIT.
    ///
    /// The decisions are asked in the batch's order, each seeing the sends decided before it
    /// (a reply earlier in the batch counts as written; a client id used earlier in the batch is
    /// a retry of that message), so the result is the one sending them one by one would give.
    /// A decision that throws fails only its own send. A statement that fails (a value
    /// PostgreSQL refuses) rolls the batch back, and then every send runs alone, so only the
    /// failing one fails. Deadlocks and serialization failures retry the batch.
    func sendBatch(_ sends: [PendingSend]) async -> [Result<WriteOutcome<Message>, any Error>] {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        let results = try await writeBatch(PostgresScope(connection: connection, logger: logger), sends)
                        try await connection.query("COMMIT", logger: logger)
                        return results
                    } catch {
                        try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch let error as PSQLError where Self.isRetryable(error) && attempt < 5 {
                try? await Task.sleep(for: .milliseconds(attempt * 5))
            } catch let error as PSQLError where sends.count > 1 && !isUnavailable(error) {
                // One statement failed for one send's values: find it by sending each alone (a
                // batch of one, whose failure is its own).
                var results: [Result<WriteOutcome<Message>, any Error>] = []
                for send in sends { results.append(await sendBatch([send])[0]) }
                return results
            } catch {
                return Array(repeating: .failure(translate(error)), count: sends.count)
            }
        }
    }

    /// Whether `error` means the database cannot serve (every send of the batch fails with it)
    /// rather than that a statement failed on some send's values.
    private func isUnavailable(_ error: PSQLError) -> Bool {
        if case .unavailable = translate(error) as? StorageError { return true }
        return false
    }

    /// The batch's work inside its transaction.
    private func writeBatch(_ scope: PostgresScope, _ sends: [PendingSend]) async throws -> [Result<WriteOutcome<Message>, any Error>] {
        let senderIds = sends.map(\.new.sender.id)
        let keys = sends.map(\.new.recipientKey)
        let clientIds = sends.map(\.new.clientMessageId)
        // Every user of the batch locked first, in id order, as one send locks its two.
        _ = try await scope.rows(PreparedQuery(BatchLock.self, Self.binds(senderIds, keys)))
        let factRows = try await scope.rows(PreparedQuery(BatchFacts.self, Self.binds(senderIds, keys, clientIds)))
        guard factRows.count == sends.count else { throw StorageError.inconsistent("a batch's facts came back \(factRows.count) for \(sends.count)") }
        let earlierIds = try factRows.compactMap { try $0.value(2, as: Int64?.self) }
        let earlier = earlierIds.isEmpty ? [:] : Dictionary(
            try await Self.fetchMessages(scope, where: "m.id = ANY($1)", Self.binds(earlierIds)).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        var freeIds = try factRows.compactMap { try $0.value(5, as: Int64?.self) }.sorted()[...]

        var plan = SendBatchPlan()
        var results: [Result<WriteOutcome<Message>, any Error>?] = Array(repeating: nil, count: sends.count)
        for (index, send) in sends.enumerated() {
            let new = send.new, row = factRows[index]
            do {
                guard let recipient = try row.value(0, as: Int64?.self) else {
                    _ = try send.decisions.decide(nil, for: new, earlier: { nil })
                    throw StorageError.inconsistent("a send was allowed to a recipient that does not exist")
                }
                let facts = RecipientFacts(
                    id: recipient, username: try row.value(1),
                    followsSender: try row.value(3, as: Bool.self),
                    hasWrittenToSender: try row.value(4, as: Bool.self) || plan.wrote(from: recipient, to: new.sender.id),
                    blockedSender: try row.value(6), blockedBySender: try row.value(7))
                let stored = try row.value(2, as: Int64?.self).flatMap { earlier[String($0)] }
                let existing = plan.message(sender: new.sender.id, clientMessageId: new.clientMessageId) ?? stored
                if case .replay(let earlier) = try send.decisions.decide(facts, for: new, earlier: { existing }) {
                    results[index] = .success(WriteOutcome(value: earlier, created: false))
                    continue
                }
                if let existing {
                    results[index] = .success(WriteOutcome(value: try send.decisions.replay(existing, for: new), created: false))
                    continue
                }
                guard let messageId = freeIds.popFirst() else { throw StorageError.inconsistent("a batch ran out of reserved message ids") }
                let message = Message(
                    id: String(messageId), clientMessageId: new.clientMessageId, sender: new.sender.username, recipient: facts.username,
                    text: new.text, createdAt: new.createdAt, readByRecipient: false, media: new.media, replyTo: new.replyTo.map { String($0) })
                plan.add(index: index, message: message, of: send, id: messageId, recipient: recipient, json: send.decisions.encode(message))
            } catch {
                results[index] = .failure(error)
            }
        }
        guard !plan.isEmpty else { return results.map { $0! } }

        let payload = PostgresBusMessage(origin: instanceId, content: .wake(users: plan.users)).payload
        let type = EventType.messageCreated
        let bases = try await scope.rows(PreparedQuery(BatchInsert.self, Self.binds(
            plan.ids, plan.senders, plan.recipients, plan.clientIds, plan.texts, plan.createdAts, plan.jsons,
            type, Self.channel, payload, plan.replyTos, plan.searchTerms,
            plan.mediaJSONs, plan.mediaLinks.messages, plan.mediaLinks.positions, plan.mediaLinks.media)))
        var base: [Int64: Int64] = [:]
        for row in bases { base[try row.value(0)] = try row.value(1) }
        for outcome in try plan.outcomes(bases: base, type: type) {
            results[outcome.index] = .success(outcome.outcome)
        }
        return results.map { $0! }
    }
}

/// The messages a batch inserts, in order, as the columns of its insert statement, and the
/// events that gives each user.
struct SendBatchPlan {
    private(set) var ids: [Int64] = []
    private(set) var senders: [Int64] = []
    private(set) var recipients: [Int64] = []
    private(set) var clientIds: [String] = []
    private(set) var texts: [String] = []
    private(set) var createdAts: [Int64] = []
    private(set) var jsons: [String] = []
    /// The id each message replies to, 0 for none.
    private(set) var replyTos: [Int64] = []
    /// Each message's `SearchTerms`, space-separated.
    private(set) var searchTerms: [String] = []
    /// Each message's `media_json`, and one (message, position, media) per attachment.
    private(set) var mediaJSONs: [String] = []
    private(set) var mediaLinks: (messages: [Int64], positions: [Int32], media: [Int64]) = ([], [], [])
    private var entries: [(index: Int, message: Message)] = []
    private var byClientId: [SenderClientId: Message] = [:]
    private var pairs: Set<[Int64]> = []

    private struct SenderClientId: Hashable {
        var sender: Int64
        var clientMessageId: String
    }

    var isEmpty: Bool { ids.isEmpty }

    /// Every user whose stream grows, ascending.
    var users: [Int64] { Set(senders + recipients).sorted() }

    /// Whether an earlier send of the batch went from `from` to `to`.
    func wrote(from: Int64, to: Int64) -> Bool { pairs.contains([from, to]) }

    /// The message an earlier send of the batch stored under this sender's client id.
    func message(sender: Int64, clientMessageId: String) -> Message? {
        byClientId[SenderClientId(sender: sender, clientMessageId: clientMessageId)]
    }

    mutating func add(index: Int, message: Message, of send: PendingSend, id: Int64, recipient: Int64, json: String) {
        let sender = send.new.sender.id
        ids.append(id)
        senders.append(sender)
        recipients.append(recipient)
        clientIds.append(message.clientMessageId)
        texts.append(message.text)
        createdAts.append(message.createdAt.millisecondsSince1970)
        jsons.append(json)
        replyTos.append(message.replyTo.flatMap { Int64($0) } ?? 0)
        searchTerms.append(send.searchTerms)
        mediaJSONs.append(send.mediaJSON)
        for (position, media) in message.media.enumerated() {
            mediaLinks.messages.append(id)
            mediaLinks.positions.append(Int32(position))
            mediaLinks.media.append(Int64(media.id) ?? 0)
        }
        entries.append((index, message))
        byClientId[SenderClientId(sender: sender, clientMessageId: message.clientMessageId)] = message
        pairs.insert([sender, recipient])
    }

    /// Each inserted send's outcome, its events numbered from each user's `bases` (the stream's
    /// head before the batch) in the batch's order, as the insert statement numbered them.
    func outcomes(bases: [Int64: Int64], type: String) throws -> [(index: Int, outcome: WriteOutcome<Message>)] {
        var next = bases
        func event(_ user: Int64, _ k: Int) throws -> AppendedEvent {
            guard let seq = next[user].map({ $0 + 1 }) else { throw StorageError.inconsistent("user \(user) is missing") }
            next[user] = seq
            return AppendedEvent(userId: user, event: StoredEvent(seq: seq, type: type, createdAt: entries[k].message.createdAt, json: jsons[k]))
        }
        return try entries.indices.map { k in
            // Sender first, as SQLite orders them.
            let appended = [try event(senders[k], k), try event(recipients[k], k)]
            return (entries[k].index, WriteOutcome(value: entries[k].message, created: true, appended: appended, json: jsons[k]))
        }
    }
}

/// Locks every user of a batch (senders `$1`, recipients' username keys `$2`) in id order.
private enum BatchLock: PreparedSQL {
    static let sql = "SELECT id FROM users WHERE id = ANY($1) OR username_key = ANY($2) ORDER BY id FOR UPDATE"
}

/// Every send's facts, in the batch's order: senders `$1`, recipient keys `$2`, client ids `$3`.
private enum BatchFacts: PreparedSQL {
    static let sql = """
        SELECT u.id, u.username,
            (SELECT id FROM messages WHERE sender_id = t.sender_id AND client_message_id = t.client_message_id),
            EXISTS (SELECT 1 FROM follows WHERE follower_id = u.id AND followee_id = t.sender_id),
            EXISTS (SELECT 1 FROM conversations WHERE owner_id = t.sender_id AND peer_id = u.id AND has_received),
            CASE WHEN u.id IS NULL THEN NULL ELSE nextval(pg_get_serial_sequence('messages', 'id')) END,
            EXISTS (SELECT 1 FROM blocks WHERE blocker_id = u.id AND blocked_id = t.sender_id),
            EXISTS (SELECT 1 FROM blocks WHERE blocker_id = t.sender_id AND blocked_id = u.id)
        FROM unnest($1::int8[], $2::text[], $3::text[]) WITH ORDINALITY
            AS t(sender_id, recipient_key, client_message_id, ord)
        LEFT JOIN users u ON u.username_key = t.recipient_key
        ORDER BY t.ord
        """
}

/// Stores a batch's messages, conversations, events and notification: the plan's columns
/// `$1`…`$7`, the event type `$8`, the channel `$9`, the payload `$10`, then the plan's reply
/// links `$11` (0: none) and search terms `$12`, each message's media JSON `$13` and its media
/// links (`$14` message, `$15` position, `$16` media).
private enum BatchInsert: PreparedSQL {
    static let sql = """
        WITH input AS (
            SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[],
                $4::text[], $5::text[], $6::int8[], $7::text[], $11::int8[], $12::text[], $13::text[]) WITH ORDINALITY
                AS t(id, sender_id, recipient_id, client_message_id, text, created_at, data, reply_to, terms, media_json, ord)),
        m AS (
            INSERT INTO messages (
                id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, reply_to, search_words, media_json)
            SELECT id, sender_id, recipient_id, LEAST(sender_id, recipient_id), GREATEST(sender_id, recipient_id),
                client_message_id, text, created_at, NULLIF(reply_to, 0), string_to_array(terms, ' '), media_json FROM input),
        mm AS (
            INSERT INTO message_media (message_id, position, media_id)
            SELECT * FROM unnest($14::int8[], $15::int4[], $16::int8[])),
        c AS (
            INSERT INTO conversations (owner_id, peer_id, last_message_id, unread_count, has_received)
            SELECT owner_id, peer_id, MAX(id), SUM(received), BOOL_OR(received = 1) FROM (
                SELECT sender_id AS owner_id, recipient_id AS peer_id, id, 0 AS received FROM input
                UNION ALL SELECT recipient_id, sender_id, id, 1 FROM input) sides
            GROUP BY owner_id, peer_id
            ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                last_message_id = excluded.last_message_id,
                unread_count = conversations.unread_count + excluded.unread_count,
                has_received = conversations.has_received OR excluded.has_received),
        ev AS (
            SELECT sender_id AS user_id, ord, created_at, data FROM input
            UNION ALL SELECT recipient_id, ord, created_at, data FROM input),
        counts AS (SELECT user_id, COUNT(*) AS n FROM ev GROUP BY user_id),
        seqs AS (
            UPDATE users SET last_seq = users.last_seq + counts.n FROM counts WHERE users.id = counts.user_id
            RETURNING users.id, users.last_seq - counts.n AS base),
        appended AS (
            INSERT INTO events (user_id, seq, type, created_at, data)
            SELECT ev.user_id, seqs.base + ROW_NUMBER() OVER (PARTITION BY ev.user_id ORDER BY ev.ord), $8, ev.created_at, ev.data
            FROM ev JOIN seqs ON seqs.id = ev.user_id)
        SELECT id, base, pg_notify($9, $10)::text FROM seqs
        """
}
