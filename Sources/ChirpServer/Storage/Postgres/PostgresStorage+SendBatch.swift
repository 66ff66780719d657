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
        mediaJSON = new.mediaJSON
    }

    /// The message this send stores under `id`, to `recipient` (the username as stored).
    func message(id: Int64, recipient: String) -> Message {
        Message(
            id: String(id), clientMessageId: new.clientMessageId, sender: new.sender.username, recipient: recipient,
            text: new.text, createdAt: new.createdAt, readByRecipient: false, media: new.media,
            replyTo: new.replyTo.map { String($0) }, envelope: new.envelope)
    }
}

extension PostgresStorage {
    /// Writes a batch of sends in two round trips whatever its size, with no transaction held
    /// open between them: one statement reads every send's facts (and earlier message under its
    /// client id, reserving ids), `MessageRules` decides each send, and `chirp_send_batch` locks
    /// the batch's users, checks those facts again under the locks and stores every allowed
    /// message, both sides' conversation rows, all events and the notification in one
    /// autocommitted statement (`PostgresSendBatchSchema`). When every send's facts are known
    /// from earlier batches and the last batch reserved enough ids (`SendFactsCache`), and
    /// every send is allowed, the first statement is skipped: one round trip.
    ///
    /// A fact that changed in between (a follow, a block, a first reply, the same client id
    /// through another instance) writes nothing, and the batch is decided again; after
    /// `optimisticAttempts` such rounds it is decided under the locks instead, in a transaction
    /// (BEGIN, lock, facts, the same function, COMMIT), which cannot be overtaken.
    ///
    /// The decisions are asked in the batch's order, each seeing the sends decided before it
    /// (a reply earlier in the batch counts as written; a client id used earlier in the batch is
    /// a retry of that message), so the result is the one sending them one by one would give.
    /// A decision that throws fails only its own send. A statement that fails (a value
    /// PostgreSQL refuses) writes nothing, and then every send runs alone, so only the
    /// failing one fails. Deadlocks and serialization failures retry the batch.
    func sendBatch(_ sends: [PendingSend]) async -> [Result<WriteOutcome<Message>, any Error>] {
        var attempt = 0
        var staleRounds = 0
        while true {
            attempt += 1
            do {
                let locked = staleRounds >= Self.optimisticAttempts
                let written = try await client.withConnection {
                    connection -> [Result<WriteOutcome<Message>, any Error>]? in
                    let scope = PostgresScope(connection: connection, logger: logger)
                    guard locked else {
                        if staleRounds == 0, let written = try await writeFromCache(scope, sends) { return written }
                        return try await writeBatch(scope, sends)
                    }
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        _ = try await scope.rows(
                            PreparedQuery(
                                BatchLock.self,
                                Self.binds(
                                    sends.map(\.new.sender.id), sends.map(\.new.recipientKey))))
                        guard let results = try await writeBatch(scope, sends) else {
                            throw StorageError.inconsistent("a batch's facts changed under its locks")
                        }
                        try await connection.query("COMMIT", logger: logger)
                        return results
                    } catch {
                        try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
                guard let written else {
                    staleRounds += 1
                    continue
                }
                return written
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

    /// Rounds decided from an unlocked read before a batch is decided under its locks.
    static let optimisticAttempts = 3

    /// Whether `error` means the database cannot serve (every send of the batch fails with it)
    /// rather than that a statement failed on some send's values.
    private func isUnavailable(_ error: PSQLError) -> Bool {
        if case .unavailable = translate(error) as? StorageError { return true }
        return false
    }

    /// Reads the batch's facts, decides every send and writes the allowed ones; nil when a fact
    /// changed before the write (nothing was written).
    private func writeBatch(_ scope: PostgresScope, _ sends: [PendingSend]) async throws -> [Result<
        WriteOutcome<Message>, any Error
    >]? {
        let senderIds = sends.map(\.new.sender.id)
        let keys = sends.map(\.new.recipientKey)
        let clientIds = sends.map(\.new.clientMessageId)
        let sessions = sends.map {
            ByteBuffer(bytes: $0.new.sender.sessionConfirmation == .bySendWrite ? $0.new.sender.tokenHash : [])
        }
        let factRows = try await scope.rows(
            PreparedQuery(
                BatchFacts.self,
                Self.binds(
                    senderIds, keys, clientIds, sessions, sends.map(\.new.createdAt.millisecondsSince1970))))
        guard factRows.count == sends.count else {
            throw StorageError.inconsistent("a batch's facts came back \(factRows.count) for \(sends.count)")
        }
        let at = StorageSQL.recipientFactCount
        let earlierIds = try factRows.map { try $0.value(at, as: Int64?.self) }
        let found = earlierIds.compactMap { $0 }
        let earlierById =
            found.isEmpty
            ? [:]
            : Dictionary(
                try await Self.fetchMessages(scope, where: "m.id = ANY($1)", Self.binds(found)).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
        let facts = try factRows.map { row in
            try row.value(0, as: Int64?.self) == nil ? nil : try Self.recipientFacts(from: row, at: 0)
        }
        factsCache.remember(facts, of: sends)
        let (plan, results) = Self.decide(
            sends, facts: facts, earlier: earlierIds.map { $0.flatMap { earlierById[String($0)] } },
            ids: try factRows.compactMap { try $0.value(at + 1, as: Int64?.self) }.sorted(),
            sessionsLive: try factRows.map { try $0.value(at + 2, as: Bool.self) })
        return try await writePlan(scope, plan, results)
    }

    /// The batch decided from `factsCache` alone, and written; nil (nothing written) when a
    /// send's facts or an id are not at hand, when a send is not a plain insert (a refusal or a
    /// retry needs the stored earlier message), or when a fact changed.
    private func writeFromCache(_ scope: PostgresScope, _ sends: [PendingSend]) async throws -> [Result<
        WriteOutcome<Message>, any Error
    >]? {
        guard let (facts, ids) = factsCache.take(for: sends) else { return nil }
        let (plan, results) = Self.decide(
            sends, facts: facts, earlier: Array(repeating: nil, count: sends.count), ids: ids, sessionsLive: nil)
        // Anything decided other than an insert was decided without the stored messages.
        guard results.allSatisfy({ $0 == nil }) else { return nil }
        return try await writePlan(scope, plan, results)
    }

    /// Asks each send's decisions in the batch's order, given its recipient's stored `facts` (nil:
    /// no such user) and its `earlier` stored message under the client id, each seeing the sends
    /// decided before it; plans the inserts under `ids` (ascending, one per insert at least).
    /// `sessionsLive`: whether each sender's session was found live in the same read (nil: not
    /// read, so the write confirms the sessions of viewers taken from the cache,
    /// `SessionConfirmation.bySendWrite`). Returns the plan and each send's result, nil for a
    /// planned insert.
    private static func decide(
        _ sends: [PendingSend], facts: [RecipientFacts?], earlier: [Message?], ids: [Int64], sessionsLive: [Bool]?
    ) -> (SendBatchPlan, [Result<WriteOutcome<Message>, any Error>?]) {
        var freeIds = ids[...]
        var plan = SendBatchPlan()
        var results: [Result<WriteOutcome<Message>, any Error>?] = Array(repeating: nil, count: sends.count)
        for (index, send) in sends.enumerated() {
            let new = send.new
            do {
                if let sessionsLive, !sessionsLive[index] { throw send.decisions.sessionEnded() }
                guard let known = facts[index] else {
                    _ = try send.decisions.decide(nil, for: new, earlier: { nil })
                    throw StorageError.inconsistent("a send was allowed to a recipient that does not exist")
                }
                // The facts as the sends decided before it in the batch left them.
                var facts = known
                facts.hasWrittenToSender = known.hasWrittenToSender || plan.wrote(from: known.id, to: new.sender.id)
                facts.request = plan.request(recipient: known.id, sender: new.sender.id) ?? known.request
                if let sent = plan.request(recipient: new.sender.id, sender: known.id) {
                    facts.senderHasPendingRequest = sent == .pending
                }
                let existing =
                    plan.message(sender: new.sender.id, clientMessageId: new.clientMessageId) ?? earlier[index]
                let requestChange: RequestChange
                switch try send.decisions.decide(facts, for: new, earlier: { existing }) {
                case .replay(let answer):
                    results[index] = .success(WriteOutcome(value: answer, created: false))
                    continue
                case .insert(let change):
                    requestChange = change
                }
                if let existing {
                    results[index] = .success(
                        WriteOutcome(value: try send.decisions.replay(existing, for: new), created: false))
                    continue
                }
                guard let messageId = freeIds.popFirst() else {
                    throw StorageError.inconsistent("a batch ran out of reserved message ids")
                }
                let message = send.message(id: messageId, recipient: known.username)
                plan.add(
                    index: index, message: message, of: send, id: messageId, decidedOn: known,
                    json: send.decisions.encode(message),
                    confirmingSession: sessionsLive == nil && new.sender.sessionConfirmation == .bySendWrite,
                    request: requestChange)
            } catch {
                results[index] = .failure(error)
            }
        }
        return (plan, results)
    }

    /// Writes the plan's messages with `chirp_send_batch` and completes `results` with their
    /// outcomes; nil (nothing written) when a fact changed. The call also reserves ids for the
    /// next batch.
    private func writePlan(
        _ scope: PostgresScope, _ plan: SendBatchPlan, _ decided: [Result<WriteOutcome<Message>, any Error>?]
    ) async throws -> [Result<WriteOutcome<Message>, any Error>]? {
        var results = decided
        guard !plan.isEmpty else { return results.map { $0! } }
        if let hook = afterBatchFacts.withLock({ $0 }) { try await hook() }

        let type = EventType.messageCreated
        // Other instances' streams get the events themselves when they fit in a notification.
        let payload =
            PostgresBusMessage.appendedPayload(origin: instanceId, type: type, messages: plan.notified)
            ?? PostgresBusMessage(origin: instanceId, content: .wake(users: plan.users)).payload
        let reserve = Int32(min(256, max(16, 2 * plan.ids.count)))
        let arguments = SendBatchArguments(
            plan: plan, type: type, channel: Self.channel, payload: payload, reserve: reserve)
        let rows = try await scope.rows(PreparedQuery(BatchWrite.self, arguments.bindings))
        // The rows arrive before the autocommit: in the extended protocol PostgreSQL sends them
        // and CommandComplete at Execute, and commits (and waits for the synchronous standby)
        // only at Sync; postgres-nio ends the row stream at CommandComplete. A primary killed
        // in that wait still flushes them, so nothing may be acknowledged yet. The next
        // statement on the connection runs only after ReadyForQuery, that is after the commit;
        // if the connection dies first, it fails and so does the batch (503, retried by id).
        try await scope.execute("SELECT 1")
        var base: [Int64: Int64] = [:]
        var reserved: [Int64] = []
        for row in rows {
            guard let user = try row.value(0, as: Int64?.self), let value = try row.value(1, as: Int64?.self) else {
                return nil
            }
            if user == 0 { reserved.append(value) } else { base[user] = value }
        }
        factsCache.reserve(reserved)
        for outcome in try plan.outcomes(bases: base, type: type) {
            results[outcome.index] = .success(outcome.outcome)
        }
        factsCache.recordSent(plan.sent)
        factsCache.forget(plan.requestPairs)
        return results.map { $0! }
    }
}

/// The messages a batch inserts, in order, as the columns of its insert statement, and the
/// events that gives each user.
struct SendBatchPlan {
    private(set) var ids: [Int64] = []
    private(set) var senders: [Int64] = []
    private(set) var recipients: [Int64] = []
    /// Each recipient's username key, as the facts were read by.
    private(set) var recipientKeys: [String] = []
    /// The stored facts each message was decided on (`RecipientFacts`, without the batch's own
    /// earlier sends), which `chirp_send_batch` checks again under its locks.
    private(set) var decidedOn:
        (
            follows: [Bool], hasReceived: [Bool], blocked: [Bool], blockedBy: [Bool],
            takesRequests: [Bool], requests: [Int32], senderPending: [Bool], encrypted: [Bool]
        ) = ([], [], [], [], [], [], [], [])
    private(set) var clientIds: [String] = []
    private(set) var texts: [String] = []
    private(set) var createdAts: [Int64] = []
    private(set) var jsons: [String] = []
    /// Each message's envelope as stored, `''` for a plaintext one.
    private(set) var envelopes: [String] = []
    /// The id each message replies to, 0 for none.
    private(set) var replyTos: [Int64] = []
    /// Each message's `SearchTerms`, space-separated.
    private(set) var searchTerms: [String] = []
    /// Each message's `media_json`, and one (message, position, media) per attachment.
    private(set) var mediaJSONs: [String] = []
    private(set) var mediaLinks: (messages: [Int64], positions: [Int32], media: [Int64]) = ([], [], [])
    /// The sessions the write confirms (`SessionConfirmation.bySendWrite`): token digest, user
    /// and the time it must be live at, once per session.
    private(set) var sessions: (hashes: [ByteBuffer], users: [Int64], ats: [Int64]) = ([], [], [])
    private var confirming: Set<[UInt8]> = []
    private var entries: [(index: Int, message: Message)] = []
    private var byClientId: [SenderClientId: Message] = [:]
    private var pairs: Set<[Int64]> = []
    /// The request rows the batch writes, by (recipient, sender), as they end up, and their
    /// order; with the recipients' username keys and the senders', for `requestPairs`.
    private var requestStates: [[Int64]: RequestState] = [:]
    private var requestOrder: [[Int64]] = []
    private(set) var requestPairs: [(sender: Int64, recipientKey: String, recipient: Int64, senderKey: String)] = []

    private struct SenderClientId: Hashable {
        var sender: Int64
        var clientMessageId: String
    }

    var isEmpty: Bool { ids.isEmpty }

    /// Each message's sender, the sender's username key and its recipient.
    var sent: [(sender: Int64, senderKey: String, recipient: Int64)] {
        entries.indices.map { (senders[$0], Validation.usernameKey(entries[$0].message.sender), recipients[$0]) }
    }

    /// Every user whose stream grows, ascending.
    var users: [Int64] { Set(senders + recipients).sorted() }

    /// Whether an earlier send of the batch went from `from` to `to`.
    func wrote(from: Int64, to: Int64) -> Bool { pairs.contains([from, to]) }

    /// The recipient's request from the sender as an earlier send of the batch left it; nil
    /// when none changed it.
    func request(recipient: Int64, sender: Int64) -> RequestState? { requestStates[[recipient, sender]] }

    /// The request rows to write, one per (recipient, sender), as `chirp_send_batch` takes them.
    var requestRows: (recipients: [Int64], senders: [Int64], accepted: [Bool]) {
        (requestOrder.map { $0[0] }, requestOrder.map { $0[1] }, requestOrder.map { requestStates[$0] == .accepted })
    }

    /// The message an earlier send of the batch stored under this sender's client id.
    func message(sender: Int64, clientMessageId: String) -> Message? {
        byClientId[SenderClientId(sender: sender, clientMessageId: clientMessageId)]
    }

    mutating func add(
        index: Int, message: Message, of send: PendingSend, id: Int64, decidedOn facts: RecipientFacts, json: String,
        confirmingSession: Bool,
        request: RequestChange
    ) {
        let sender = send.new.sender.id
        if confirmingSession, confirming.insert(send.new.sender.tokenHash).inserted {
            sessions.hashes.append(ByteBuffer(bytes: send.new.sender.tokenHash))
            sessions.users.append(sender)
            sessions.ats.append(send.new.createdAt.millisecondsSince1970)
        }
        ids.append(id)
        senders.append(sender)
        recipients.append(facts.id)
        recipientKeys.append(send.new.recipientKey)
        decidedOn.follows.append(facts.followsSender)
        decidedOn.hasReceived.append(facts.hasWrittenToSender)
        decidedOn.blocked.append(facts.blockedSender)
        decidedOn.blockedBy.append(facts.blockedBySender)
        decidedOn.takesRequests.append(facts.takesRequests)
        decidedOn.requests.append(facts.request.code)
        decidedOn.senderPending.append(facts.senderHasPendingRequest)
        decidedOn.encrypted.append(facts.encrypted)
        if let row = request.row(sender: sender, recipient: facts.id) {
            let key = [row.recipient, row.sender]
            if requestStates.updateValue(row.accepted ? .accepted : .pending, forKey: key) == nil {
                requestOrder.append(key)
            }
            requestPairs.append(
                (sender, send.new.recipientKey, facts.id, Validation.usernameKey(send.new.sender.username)))
        }
        clientIds.append(message.clientMessageId)
        texts.append(message.text)
        createdAts.append(message.createdAt.millisecondsSince1970)
        jsons.append(json)
        envelopes.append(send.new.envelopeJSON ?? "")
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
        pairs.insert([sender, facts.id])
    }

    /// The messages as the batch's events notification carries them.
    var notified: [PostgresBusMessage.NotifiedMessage] {
        entries.indices.map {
            .init(
                sender: senders[$0], recipient: recipients[$0], createdAt: entries[$0].message.createdAt,
                json: jsons[$0])
        }
    }

    /// Each inserted send's outcome, its events numbered from each user's `bases` (the stream's
    /// head before the batch) in the batch's order, as the insert statement numbered them.
    func outcomes(bases: [Int64: Int64], type: String) throws -> [(index: Int, outcome: WriteOutcome<Message>)] {
        var numbering = StreamNumbering(heads: bases)
        return try zip(entries, notified).enumerated().map { k, pair in
            // Sender first, as SQLite orders them.
            let appended = try numbering.events(of: pair.1, type: type)
            return (
                pair.0.index, WriteOutcome(value: pair.0.message, created: true, appended: appended, json: jsons[k])
            )
        }
    }
}

/// Locks every user of a batch (senders `$1`, recipients' username keys `$2`) in id order.
private enum BatchLock: PreparedSQL {
    static let sql = "SELECT id FROM users WHERE id = ANY($1) OR username_key = ANY($2) ORDER BY id FOR UPDATE"
}

/// Every send's facts, in the batch's order (`StorageSQL.recipientFactColumns`, then the id of
/// the sender's earlier message under the client id, an id reserved for the message when the
/// recipient exists, and whether the session is live): senders `$1`, recipient keys `$2`,
/// client ids `$3`, and whether the sender's session (`$4`, its token digest, empty when confirmed already) is
/// live at the send's time (`$5`).
private enum BatchFacts: PreparedSQL {
    static let sql = """
        SELECT \(StorageSQL.recipientFactColumns(sender: "t.sender_id")),
            (SELECT id FROM messages WHERE sender_id = t.sender_id AND client_message_id = t.client_message_id AND group_id IS NULL),
            CASE WHEN u.id IS NULL THEN NULL ELSE nextval(pg_get_serial_sequence('messages', 'id')) END,
            length(t.session) = 0 OR EXISTS (
                SELECT 1 FROM sessions s WHERE s.token_hash = t.session AND s.user_id = t.sender_id AND s.expires_at > t.at)
        FROM unnest($1::int8[], $2::text[], $3::text[], $4::bytea[], $5::int8[]) WITH ORDINALITY
            AS t(sender_id, recipient_key, client_message_id, session, at, ord)
        LEFT JOIN users u ON u.username_key = t.recipient_key
        ORDER BY t.ord
        """
}

/// Confirms the batch's sessions and then locks its users, checks the facts its messages were
/// decided on and stores them (`PostgresSendBatchSchema`), with the arguments
/// `SendBatchArguments` names. Returns each user's stream head before the batch and then
/// `(0, id)` for each reserved id, or one row of NULLs when a session ended or a fact changed
/// (nothing written).
private enum BatchWrite: PreparedSQL {
    static let sql = SendBatchArguments.sql
}
