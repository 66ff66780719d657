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
enum PostgresSendBatchSchema {
    /// `chirp_send_batch`'s parameters, which `chirp_send_batch_confirming` takes too; with
    /// `requests` (v16), the request facts each send was decided on (whether the recipient
    /// takes requests; their request from the sender, 0 none, 1 pending, 2 accepted; whether
    /// the sender has a pending request from the recipient) and the request rows to write
    /// (recipient, sender, accepted).
    private static func batchParameters(requests: Bool) -> String {
        """
                p_users int8[],
                p_ids int8[], p_senders int8[], p_recipients int8[], p_recipient_keys text[],
                p_client_ids text[], p_texts text[], p_created_ats int8[], p_jsons text[],
                p_reply_tos int8[], p_terms text[], p_media_jsons text[],
                p_follows bool[], p_has_received bool[], p_blocked bool[], p_blocked_by bool[],
                p_mm_messages int8[], p_mm_positions int4[], p_mm_media int8[],
                p_type text, p_channel text, p_payload text, p_reserve int4\(requests ? """
                ,
                        p_takes_requests bool[], p_request_states int4[], p_sender_pending bool[],
                        p_rq_recipients int8[], p_rq_senders int8[], p_rq_accepted bool[])
                """ : ")")
            """
    }

    /// The arguments that pass `batchParameters(requests:)` on, in order.
    private static func batchArguments(requests: Bool) -> String {
        """
        p_users, p_ids, p_senders, p_recipients, p_recipient_keys,
                    p_client_ids, p_texts, p_created_ats, p_jsons, p_reply_tos, p_terms, p_media_jsons,
                    p_follows, p_has_received, p_blocked, p_blocked_by, p_mm_messages, p_mm_positions, p_mm_media,
                    p_type, p_channel, p_payload, p_reserve\(requests ? """
            ,
                        p_takes_requests, p_request_states, p_sender_pending, p_rq_recipients, p_rq_senders, p_rq_accepted
            """ : "")
        """
    }

    /// Locks every user of the batch in id order and checks, under the locks, the facts each
    /// send was decided on; a changed fact returns one row of NULLs and writes nothing.
    private static func lockAndCheck(requests: Bool) -> String {
        """
        PERFORM 1 FROM users WHERE id = ANY(p_users) ORDER BY id FOR UPDATE;
        -- Each fact probed per send (LATERAL ... LIMIT 1): as plain EXISTS in a WHERE,
        -- the planner may hash whole tables (users, follows, blocks) for a few sends.
        IF EXISTS (
            SELECT 1 FROM unnest(p_senders, p_recipients, p_recipient_keys, p_client_ids,
                    p_follows, p_has_received, p_blocked, p_blocked_by\(requests ? ", p_takes_requests, p_request_states, p_sender_pending" : ""))
                AS e(sender_id, recipient_id, recipient_key, client_message_id, follows, has_received, blocked, blocked_by\(
                    requests ? ", takes_requests, request_state, sender_pending" : ""))
            LEFT JOIN LATERAL (SELECT u.username_key\(requests ? ", u.takes_message_requests" : "")
                FROM users u WHERE u.id = e.recipient_id LIMIT 1) u ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM messages m
                WHERE m.sender_id = e.sender_id AND m.client_message_id = e.client_message_id LIMIT 1) taken ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM follows f
                WHERE f.follower_id = e.recipient_id AND f.followee_id = e.sender_id LIMIT 1) fo ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM conversations c
                WHERE c.owner_id = e.sender_id AND c.peer_id = e.recipient_id AND c.has_received LIMIT 1) hr ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM blocks b
                WHERE b.blocker_id = e.recipient_id AND b.blocked_id = e.sender_id LIMIT 1) bl ON true
            LEFT JOIN LATERAL (SELECT 1 AS x FROM blocks b
                WHERE b.blocker_id = e.sender_id AND b.blocked_id = e.recipient_id LIMIT 1) bb ON true\(requests ? """

                LEFT JOIN LATERAL (SELECT CASE WHEN q.accepted THEN 2 ELSE 1 END AS state FROM message_requests q
                    WHERE q.recipient_id = e.recipient_id AND q.sender_id = e.sender_id LIMIT 1) rq ON true
                LEFT JOIN LATERAL (SELECT 1 AS x FROM message_requests q
                    WHERE q.recipient_id = e.sender_id AND q.sender_id = e.recipient_id AND NOT q.accepted LIMIT 1) sp ON true
            """ : "")
            WHERE u.username_key IS DISTINCT FROM e.recipient_key OR taken.x IS NOT NULL
                OR (fo.x IS NOT NULL) <> e.follows OR (hr.x IS NOT NULL) <> e.has_received
                OR (bl.x IS NOT NULL) <> e.blocked OR (bb.x IS NOT NULL) <> e.blocked_by\(requests ? """

                    OR u.takes_message_requests IS DISTINCT FROM e.takes_requests
                    OR COALESCE(rq.state, 0) <> e.request_state OR (sp.x IS NOT NULL) <> e.sender_pending
            """ : ""))
        THEN
            RETURN QUERY SELECT NULL::int8, NULL::int8;
            RETURN;
        END IF;
    """
    }

    /// The statement that stores the batch: messages, media links, both sides' conversation
    /// rows, each user's stream head moved on (`seqs`: the user, the head before) and the events.
    private static func writes(requests: Bool) -> String {
        """
        WITH input AS (
            SELECT * FROM unnest(p_ids, p_senders, p_recipients, p_client_ids, p_texts, p_created_ats, p_jsons,
                p_reply_tos, p_terms, p_media_jsons) WITH ORDINALITY
                AS t(id, sender_id, recipient_id, client_message_id, text, created_at, data, reply_to, terms, media_json, ord)),
        m AS (
            INSERT INTO messages (
                id, sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, reply_to,
                search_words, media_json)
            SELECT i.id, i.sender_id, i.recipient_id, LEAST(i.sender_id, i.recipient_id), GREATEST(i.sender_id, i.recipient_id),
                i.client_message_id, i.text, i.created_at, NULLIF(i.reply_to, 0), string_to_array(i.terms, ' '), i.media_json
            FROM input i),
        mm AS (
            INSERT INTO message_media (message_id, position, media_id)
            SELECT * FROM unnest(p_mm_messages, p_mm_positions, p_mm_media)),
        c AS (
            INSERT INTO conversations AS cv (owner_id, peer_id, last_message_id, unread_count, has_received)
            SELECT sides.owner_id, sides.peer_id, MAX(sides.id), SUM(sides.received), BOOL_OR(sides.received = 1) FROM (
                SELECT i.sender_id AS owner_id, i.recipient_id AS peer_id, i.id, 0 AS received FROM input i
                UNION ALL SELECT i.recipient_id, i.sender_id, i.id, 1 FROM input i) sides
            GROUP BY sides.owner_id, sides.peer_id
            ON CONFLICT (owner_id, peer_id) DO UPDATE SET
                last_message_id = excluded.last_message_id,
                unread_count = cv.unread_count + excluded.unread_count,
                has_received = cv.has_received OR excluded.has_received),
        ev AS (
            SELECT i.sender_id AS owner, i.ord, i.created_at, i.data FROM input i
            UNION ALL SELECT i.recipient_id, i.ord, i.created_at, i.data FROM input i),
        counts AS (SELECT ev.owner, COUNT(*) AS n FROM ev GROUP BY ev.owner),
        seqs AS (
            UPDATE users SET last_seq = users.last_seq + counts.n FROM counts WHERE users.id = counts.owner
            RETURNING users.id, users.last_seq - counts.n AS first),
        appended AS (
            INSERT INTO events (user_id, seq, type, created_at, data)
            SELECT ev.owner, seqs.first + ROW_NUMBER() OVER (PARTITION BY ev.owner ORDER BY ev.ord), p_type, ev.created_at, ev.data
            FROM ev JOIN seqs ON seqs.id = ev.owner)\(requests ? """
            ,
                rq AS (
                    INSERT INTO message_requests AS q (recipient_id, sender_id, accepted)
                    SELECT * FROM unnest(p_rq_recipients, p_rq_senders, p_rq_accepted)
                    ON CONFLICT (recipient_id, sender_id) DO UPDATE SET accepted = excluded.accepted)
            """ : "")
    """
    }

    /// Returns `p_reserve` message ids reserved for the next batch as `(0, id)` rows.
    private static let reserveIds = """
        RETURN QUERY SELECT 0::int8, nextval(pg_get_serial_sequence('messages', 'id'))
            FROM generate_series(1, p_reserve);
    """

    /// `chirp_send_batch` as v11 made it: the facts checked, the batch written, its events
    /// notified with each user's stream head before the batch, ids reserved; with `requests`
    /// (v16) the request facts checked and the request rows written too.
    private static func sendBatchFunction(requests: Bool) -> String {
        """
        CREATE OR REPLACE FUNCTION chirp_send_batch(
        \(batchParameters(requests: requests))
        RETURNS TABLE (user_id int8, base int8)
        LANGUAGE plpgsql AS $$
        DECLARE
            v_users int8[];
            v_heads int8[];
        BEGIN
        \(lockAndCheck(requests: requests))
        \(writes(requests: requests))
            SELECT array_agg(seqs.id), array_agg(seqs.first) INTO v_users, v_heads FROM seqs;
            PERFORM pg_notify(p_channel, CASE WHEN left(p_payload, 2) = 'e|'
                THEN p_payload || array_to_string(v_users, ',') || '|' || array_to_string(v_heads, ',')
                ELSE p_payload END);
            RETURN QUERY SELECT * FROM unnest(v_users, v_heads);
        \(reserveIds)
        END $$
        """
    }

    /// `chirp_send_batch_confirming` as v10 made it (with `requests`: v16's parameters).
    private static func confirmingFunction(requests: Bool) -> String {
        """
        CREATE FUNCTION chirp_send_batch_confirming(
            p_sessions bytea[], p_session_users int8[], p_session_ats int8[],
        \(batchParameters(requests: requests))
        RETURNS TABLE (user_id int8, base int8)
        LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM unnest(p_sessions, p_session_users, p_session_ats) AS c(token_hash, owner, at)
                WHERE NOT EXISTS (SELECT 1 FROM sessions s
                    WHERE s.token_hash = c.token_hash AND s.user_id = c.owner AND s.expires_at > c.at))
            THEN
                RETURN QUERY SELECT NULL::int8, NULL::int8;
                RETURN;
            END IF;
            RETURN QUERY SELECT * FROM chirp_send_batch(\(batchArguments(requests: requests)));
        END $$
        """
    }

    static let migrations: [(name: String, sql: [String])] = [
        ("v9-send-batch-function", [
            """
            CREATE FUNCTION chirp_send_batch(
            \(batchParameters(requests: false))
            RETURNS TABLE (user_id int8, base int8)
            LANGUAGE plpgsql AS $$
            BEGIN
            \(lockAndCheck(requests: false))
                PERFORM pg_notify(p_channel, p_payload);
                RETURN QUERY
            \(writes(requests: false))
                SELECT seqs.id, seqs.first FROM seqs;
            \(reserveIds)
            END $$
            """,
        ]),
        // A send whose viewer came from the instance's session cache (`SessionConfirmation.bySendWrite`)
        // is written only if its session is still there: a logout on another instance stops
        // the token at once, as a lookup per request would.
        ("v10-send-batch-confirms-sessions", [confirmingFunction(requests: false)]),
        // Carries a batch's events to the other instances in its notification (an events
        // payload, `PostgresBusMessage.appendedPayload`), completed here with each user's
        // stream head before the batch, which only this statement knows: an up-to-date stream
        // on another instance then sends them without reading the database. A wake-up list
        // (a batch too large for one notification) goes as it is.
        ("v11-send-batch-notifies-events", [sendBatchFunction(requests: false)]),
    ]

    /// After `v15-message-requests`: the functions take the request facts each send was
    /// decided on, check them under the locks with the others, and write the request rows
    /// (a request opened, or accepted by a reply) in the batch's statement.
    static let requestMigrations: [(name: String, sql: [String])] = [
        ("v16-send-batch-requests", [
            "DROP FUNCTION chirp_send_batch_confirming",
            "DROP FUNCTION chirp_send_batch",
            sendBatchFunction(requests: true),
            confirmingFunction(requests: true),
        ]),
    ]
}
