import Logging
import PostgresNIO

/// The PostgreSQL functions that write a batch of sends in one round trip (issue 25).
///
/// `chirp_send_batch` runs as one autocommitted statement: it locks every user of the batch in
/// id order, reads again, under those locks, the facts each insert was decided on (Swift's
/// `MessageRules` decided them from an unlocked read), and only if none changed stores every
/// message, both sides' conversation rows, all events and the notification (since v11 an
/// events payload gets each user's stream head before the batch appended, so other instances
/// can hand the events to their streams: `PostgresBusMessage`). A changed fact
/// writes nothing and returns one row of NULLs, and the batch is decided again. After the
/// stream heads it returns `(0, id)` rows: message ids reserved for the next batch, which may
/// then skip reading its facts (`SendFactsCache`). In PL/pgSQL
/// each statement of a volatile function takes a fresh snapshot, so the check sees every
/// commit that happened before the locks were granted. `chirp_send_batch_confirming` calls it
/// once the sessions the batch takes from instance caches are found still live.
///
/// The functions are code, not data: `install` makes them at every start-up from this file
/// (since v22), when the database's text differs, so the facts they check are the very
/// `StorageSQL.recipientFactColumns` the batch read (one definition, not a copy in a frozen
/// migration), and a change here needs no migration.
enum PostgresSendBatchSchema {
    /// `chirp_send_batch`'s parameters, which `chirp_send_batch_confirming` takes too: the
    /// batch's users, each send's message, the facts it was decided on, its media links, the
    /// events' type, channel and notification, how many ids to reserve, then the request facts
    /// each send was decided on (whether the recipient takes requests; their request from the
    /// sender, 0 none, 1 pending, 2 accepted; whether the sender has a pending request from the
    /// recipient), whether each conversation was encrypted, and the request rows to write
    /// (recipient, sender, accepted). `p_envelopes`: each message's envelope, `''` for none.
    private static let parameters = """
                p_users int8[],
                p_ids int8[], p_senders int8[], p_recipients int8[], p_recipient_keys text[],
                p_client_ids text[], p_texts text[], p_created_ats int8[], p_envelopes text[],
                p_reply_tos int8[], p_terms text[], p_media_jsons text[],
                p_follows bool[], p_has_received bool[], p_blocked bool[], p_blocked_by bool[],
                p_mm_messages int8[], p_mm_positions int4[], p_mm_media int8[],
                p_type text, p_channel text, p_payload text, p_reserve int4,
                p_takes_requests bool[], p_request_states int4[], p_sender_pending bool[], p_encrypted bool[],
                p_rq_recipients int8[], p_rq_senders int8[], p_rq_accepted bool[])
        """

    /// The arguments that pass `parameters` on, in order.
    private static let arguments = """
        p_users, p_ids, p_senders, p_recipients, p_recipient_keys,
                    p_client_ids, p_texts, p_created_ats, p_envelopes, p_reply_tos, p_terms, p_media_jsons,
                    p_follows, p_has_received, p_blocked, p_blocked_by, p_mm_messages, p_mm_positions, p_mm_media,
                    p_type, p_channel, p_payload, p_reserve,
                    p_takes_requests, p_request_states, p_sender_pending, p_encrypted,
                    p_rq_recipients, p_rq_senders, p_rq_accepted
        """

    /// Locks every user of the batch in id order and reads again, under the locks, each send's
    /// facts (`StorageSQL.recipientFactColumns`, the batch's own definition) and whether its
    /// client id is taken; any that differs from what the send was decided on returns one row
    /// of NULLs and writes nothing.
    private static let lockAndCheck = """
        PERFORM 1 FROM users WHERE id = ANY(p_users) ORDER BY id FOR UPDATE;
        -- Each send's facts probed per send (LATERAL ... LIMIT 1): as plain EXISTS in a WHERE,
        -- the planner may hash whole tables (users, follows, blocks) for a few sends.
        IF EXISTS (
            SELECT 1 FROM unnest(p_senders, p_recipients, p_recipient_keys, p_client_ids,
                    p_follows, p_has_received, p_blocked, p_blocked_by, p_takes_requests, p_request_states, p_sender_pending,
                    p_encrypted)
                AS e(sender_id, recipient_id, recipient_key, client_message_id, follows, has_received, blocked, blocked_by,
                    takes_requests, request_state, sender_pending, encrypted)
            LEFT JOIN LATERAL (SELECT \(StorageSQL.recipientFactColumns(sender: "e.sender_id"))
                FROM users u WHERE u.username_key = e.recipient_key LIMIT 1) f ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM messages m
                WHERE m.sender_id = e.sender_id AND m.client_message_id = e.client_message_id AND m.group_id IS NULL LIMIT 1) taken ON true
            WHERE f.id IS DISTINCT FROM e.recipient_id OR taken.x IS NOT NULL
                OR f.follows_sender <> e.follows OR f.wrote_to_sender <> e.has_received
                OR f.blocked_sender <> e.blocked OR f.blocked_by_sender <> e.blocked_by
                OR f.takes_message_requests <> e.takes_requests
                OR (CASE WHEN f.request IS NULL THEN 0 WHEN f.request THEN 2 ELSE 1 END) <> e.request_state
                OR f.sender_pending <> e.sender_pending OR f.encrypted <> e.encrypted)
        THEN
            RETURN QUERY SELECT NULL::int8, NULL::int8;
            RETURN;
        END IF;
        """

    /// The statement that stores the batch: messages, media links, both sides' conversation
    /// rows (a new row's read mark just before the first message it receives, or at its last
    /// one sent: `StorageSQL.directUnread`), each user's stream head moved on (`seqs`: the user, the head before), the events
    /// and the request rows.
    private static let writes = """
        WITH input AS (
            SELECT * FROM unnest(p_ids, p_senders, p_recipients, p_client_ids, p_texts, p_created_ats, p_envelopes,
                p_reply_tos, p_terms, p_media_jsons) WITH ORDINALITY
                AS t(id, sender_id, recipient_id, client_message_id, text, created_at, envelope, reply_to, terms, media_json, ord)),
        m AS (
            INSERT INTO messages (
                id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, reply_to,
                search_words, media_json, envelope)
            SELECT i.id, i.sender_id, i.recipient_id, LEAST(i.sender_id, i.recipient_id), GREATEST(i.sender_id, i.recipient_id),
                i.client_message_id, i.text, i.created_at, NULLIF(i.reply_to, 0), string_to_array(i.terms, ' '), i.media_json,
                NULLIF(i.envelope, '')
            FROM input i),
        mm AS (
            INSERT INTO message_media (message_id, position, media_id)
            SELECT * FROM unnest(p_mm_messages, p_mm_positions, p_mm_media)),
        c AS (
            INSERT INTO conversations AS cv (owner_id, peer_id, last_message_id, has_received, read_up_to)
            SELECT sides.owner_id, sides.peer_id, MAX(sides.id), BOOL_OR(sides.received = 1),
                COALESCE(MIN(CASE WHEN sides.received = 1 THEN sides.id END) - 1, MAX(sides.id)) FROM (
                SELECT i.sender_id AS owner_id, i.recipient_id AS peer_id, i.id, 0 AS received FROM input i
                UNION ALL SELECT i.recipient_id, i.sender_id, i.id, 1 FROM input i) sides
            GROUP BY sides.owner_id, sides.peer_id
            ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                last_message_id = excluded.last_message_id,
                has_received = cv.has_received OR excluded.has_received),
        ev AS (
            SELECT i.sender_id AS owner, i.ord, i.created_at, i.id FROM input i
            UNION ALL SELECT i.recipient_id, i.ord, i.created_at, i.id FROM input i),
        counts AS (SELECT ev.owner, COUNT(*) AS n FROM ev GROUP BY ev.owner),
        seqs AS (
            UPDATE users SET last_seq = users.last_seq + counts.n FROM counts WHERE users.id = counts.owner
            RETURNING users.id, users.last_seq - counts.n AS first),
        appended AS (
            INSERT INTO events (user_id, seq, type, created_at, data, message_id)
            SELECT ev.owner, seqs.first + ROW_NUMBER() OVER (PARTITION BY ev.owner ORDER BY ev.ord), p_type, ev.created_at, '', ev.id
            FROM ev JOIN seqs ON seqs.id = ev.owner),
        rq AS (
            INSERT INTO message_requests AS q (recipient_id, sender_id, accepted)
            SELECT * FROM unnest(p_rq_recipients, p_rq_senders, p_rq_accepted)
            ON CONFLICT (recipient_id, sender_id) DO UPDATE SET accepted = excluded.accepted)
        """

    /// A PL/pgSQL function as `install` makes it: its name, the rest of its header up to `$$`,
    /// and its body (what `pg_proc.prosrc` holds).
    struct Function: Sendable {
        let name: String
        let header: String
        let body: String

        var definition: String { "CREATE OR REPLACE FUNCTION \(name)(\n\(header) $$\(body)$$" }
    }

    /// `chirp_send_batch`: the facts checked, the batch written, its events notified with each
    /// user's stream head before the batch (`PostgresBusMessage`), ids reserved for the next
    /// batch as `(0, id)` rows.
    static let sendBatch = Function(
        name: "chirp_send_batch",
        header: """
            \(parameters)
            RETURNS TABLE (user_id int8, base int8)
            LANGUAGE plpgsql AS
            """,
        body: """

            DECLARE
                v_users int8[];
                v_heads int8[];
            BEGIN
            \(lockAndCheck)
            \(writes)
                SELECT array_agg(seqs.id), array_agg(seqs.first) INTO v_users, v_heads FROM seqs;
                PERFORM pg_notify(p_channel, CASE WHEN left(p_payload, 2) = 'e|'
                    THEN p_payload || array_to_string(v_users, ',') || '|' || array_to_string(v_heads, ',')
                    ELSE p_payload END);
                RETURN QUERY SELECT * FROM unnest(v_users, v_heads);
                RETURN QUERY SELECT 0::int8, nextval(pg_get_serial_sequence('messages', 'id'))
                    FROM generate_series(1, p_reserve);
            END

            """)

    /// `chirp_send_batch_confirming`: `chirp_send_batch`, once the sessions the batch took from
    /// instance caches (`SessionConfirmation.bySendWrite`) are found still live; a logout on
    /// another instance stops the token at once, as a lookup per request would.
    static let sendBatchConfirming = Function(
        name: "chirp_send_batch_confirming",
        header: """
                p_sessions bytea[], p_session_users int8[], p_session_ats int8[],
            \(parameters)
            RETURNS TABLE (user_id int8, base int8)
            LANGUAGE plpgsql AS
            """,
        body: """

            BEGIN
                IF EXISTS (
                    SELECT 1 FROM unnest(p_sessions, p_session_users, p_session_ats) AS c(token_hash, owner, at)
                    WHERE NOT EXISTS (SELECT 1 FROM sessions s
                        WHERE s.token_hash = c.token_hash AND s.user_id = c.owner AND s.expires_at > c.at))
                THEN
                    RETURN QUERY SELECT NULL::int8, NULL::int8;
                    RETURN;
                END IF;
                RETURN QUERY SELECT * FROM chirp_send_batch(\(arguments));
            END

            """)

    /// Makes each function whose body in the database differs from this build's, inside the
    /// migrating transaction (one instance at a time): the schema is migrated first, so a
    /// function always meets the tables it was written for. Returns the names made.
    static func install(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var made: [String] = []
        for function in [sendBatch, sendBatchConfirming] {
            var stored: [String] = []
            for try await body in try await connection.query(
                "SELECT prosrc FROM pg_proc WHERE proname = \(function.name) AND pronamespace = current_schema()::regnamespace",
                logger: logger
            ).decode(String.self) {
                stored.append(body)
            }
            guard stored != [function.body] else { continue }
            // Every version of it goes first: one with other parameters would stay beside it.
            var signatures: [String] = []
            for try await signature in try await connection.query(
                "SELECT oid::regprocedure::text FROM pg_proc WHERE proname = \(function.name) AND pronamespace = current_schema()::regnamespace",
                logger: logger
            ).decode(String.self) {
                signatures.append(signature)
            }
            for signature in signatures {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP FUNCTION \(signature)"), logger: logger)
            }
            try await connection.query(PostgresQuery(unsafeSQL: function.definition), logger: logger)
            made.append(function.name)
        }
        return made
    }

    /// v9–v11 made the functions and v16 made them again with the request facts; their text
    /// lived in these migrations. Since v22 `install` makes them at start-up, so these keep
    /// only their names (a database that ran them keeps its record; a new one has nothing to
    /// do until `install`).
    static let migrations: [(name: String, sql: [String])] = [
        ("v9-send-batch-function", []),
        ("v10-send-batch-confirms-sessions", []),
        ("v11-send-batch-notifies-events", []),
    ]

    /// After `v15-message-requests`, v16 dropped the functions of v11 to make them again with
    /// the request facts; it still drops them (the ones a database of v11 holds), and `install`
    /// makes today's.
    static let requestMigrations: [(name: String, sql: [String])] = [
        (
            "v16-send-batch-requests",
            [
                "DROP FUNCTION IF EXISTS chirp_send_batch_confirming",
                "DROP FUNCTION IF EXISTS chirp_send_batch",
            ]
        )
    ]
}
