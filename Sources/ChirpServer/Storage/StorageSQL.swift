/// SQL text that reads the same in SQLite and PostgreSQL.
enum StorageSQL {
    /// `m.…` message columns and the joins they need, ending in `FROM messages m …`: id,
    /// client id, sender and recipient usernames, text, created-at milliseconds, read flag,
    /// tombstone flag, then (part 2) the id replied to, the edit time, the reactions
    /// (`ReactionsColumn`) and the media JSON (`MediaJSON`), then (issue 39) the take-down flag.
    static let messageColumns = """
        m.id AS m_id, m.client_message_id AS m_client_id, s.username AS m_sender, r.username AS m_recipient, m.text AS m_text,
        m.created_at AS m_created_at, m.read AS m_read, m.deleted AS m_deleted, m.reply_to AS m_reply_to,
        m.edited_at AS m_edited_at, m.reactions AS m_reactions, m.media_json AS m_media, m.removed_by_operators AS m_removed,
        m.envelope AS m_envelope
        FROM messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id
        """

    /// The facts a send to the user `u` decides on (`RecipientFacts`), `sender` being the
    /// sender's id as SQL: u's id and username, whether u follows the sender, has written to
    /// them, has blocked them, is blocked by them, whether u takes message requests from
    /// everyone, u's request from the sender (NULL: none; else whether accepted) and whether
    /// the sender has a pending request from u. The one definition both storages' sends,
    /// PostgreSQL's batches and typing read.
    ///
    /// Each computed column has a short name: GRDB hashes a row's column names whenever it
    /// copies one, and unnamed, each was its whole expression (about 4,500 instructions a send,
    /// `scripts/count-send-instructions`).
    static func recipientFactColumns(sender: String) -> String {
        """
        u.id, u.username,
            EXISTS (SELECT 1 FROM follows WHERE follower_id = u.id AND followee_id = \(sender)) AS follows_sender,
            EXISTS (SELECT 1 FROM conversations WHERE owner_id = \(sender) AND peer_id = u.id AND has_received) AS wrote_to_sender,
            \(BlockSQL.blocked(sender, by: "u.id")) AS blocked_sender,
            \(BlockSQL.blocked("u.id", by: sender)) AS blocked_by_sender,
            u.takes_message_requests,
            (SELECT accepted FROM message_requests WHERE recipient_id = u.id AND sender_id = \(sender)) AS request,
            EXISTS (SELECT 1 FROM message_requests WHERE recipient_id = \(sender) AND sender_id = u.id AND NOT accepted) AS sender_pending,
            \(encryptedDirect("u.id", sender)) AS encrypted
        """
    }

    /// How many columns `recipientFactColumns` has.
    static let recipientFactCount = 10

    /// Whether the direct conversation of users `a` and `b` (SQL) is encrypted: its row in
    /// `encrypted_direct`, found by its key (the lower id first).
    static func encryptedDirect(_ a: String, _ b: String) -> String {
        """
        EXISTS (SELECT 1 FROM encrypted_direct WHERE user_lo = CASE WHEN \(a) < \(b) THEN \(a) ELSE \(b) END
            AND user_hi = CASE WHEN \(a) < \(b) THEN \(b) ELSE \(a) END)
        """
    }

    /// Whether the conversation `c` is a request its owner has not accepted, over the
    /// `message_requests q` row `conversationColumns` joins.
    static let pendingRequest = "(q.recipient_id IS NOT NULL AND NOT q.accepted)"

    /// A conversation as its owner sees it, ending in `FROM messages m … JOIN conversations c …
    /// LEFT JOIN conversation_marks k … LEFT JOIN message_requests q …`: the last message's id
    /// (the list's cursor), the unread count, whether it is pinned, whether muted and whether a
    /// pending request to the owner, then `peerColumns` (the peer as `u`), then
    /// `messageColumns` (its last message).
    static func conversationColumns(peerColumns: String) -> String {
        """
        c.last_message_id AS last_message_id, \(directUnread(conversation: "c")) AS unread, k.pin_order IS NOT NULL AS pinned,
            COALESCE(k.muted, FALSE) AS muted, \(pendingRequest) AS request,
            \(encryptedDirect("c.owner_id", "c.peer_id")) AS encrypted,
            \(peerColumns), \(messageColumns)
            JOIN conversations c ON m.id = c.last_message_id
            JOIN users u ON u.id = c.peer_id
            LEFT JOIN conversation_marks k ON k.owner_id = c.owner_id AND k.peer_id = c.peer_id
            LEFT JOIN message_requests q ON q.recipient_id = c.owner_id AND q.sender_id = c.peer_id
        """
    }

    /// The condition of a page of a conversation list (over `conversationColumns`): with
    /// `requests`, the pending requests to the owner, pinned or not; else the conversations
    /// that are neither pinned (listed apart) nor pending requests.
    static func listed(requests: Bool) -> String {
        requests ? pendingRequest : "k.pin_order IS NULL AND NOT \(pendingRequest)"
    }

    /// One row when recipient `$1` has a pending request from sender `$2`.
    static let pendingRequestExists =
        "SELECT 1 FROM message_requests WHERE recipient_id = $1 AND sender_id = $2 AND NOT accepted"

    /// The statements of an answer by recipient `$1` to their pending request from sender `$2`:
    /// an accept marks it accepted; a decline removes it and the recipient's conversation row
    /// with its marks (the messages stay, as the sender's conversation).
    static let answerStatements: [RequestAnswer: [String]] = [
        .accept: ["UPDATE message_requests SET accepted = TRUE WHERE recipient_id = $1 AND sender_id = $2"],
        .decline: [
            "DELETE FROM message_requests WHERE recipient_id = $1 AND sender_id = $2",
            "DELETE FROM conversations WHERE owner_id = $1 AND peer_id = $2",
            "DELETE FROM conversation_marks WHERE owner_id = $1 AND peer_id = $2",
        ],
    ]

    /// Account deletion's part in message requests, for user `$1`: the recipients' conversations
    /// of the requests it had pending go with their marks (as if declined), then its requests
    /// both ways; its setting goes back to the default.
    static let deleteAccountRequests = [
        """
        DELETE FROM conversation_marks WHERE peer_id = $1 AND owner_id IN (
            SELECT recipient_id FROM message_requests WHERE sender_id = $1 AND NOT accepted)
        """,
        """
        DELETE FROM conversations WHERE peer_id = $1 AND owner_id IN (
            SELECT recipient_id FROM message_requests WHERE sender_id = $1 AND NOT accepted)
        """,
        "DELETE FROM message_requests WHERE recipient_id = $1 OR sender_id = $1",
        "UPDATE users SET takes_message_requests = FALSE WHERE id = $1",
    ]

    /// What marking read needs to know of the peer `$2` of reader `$1`: the peer's username,
    /// and whether the reader has a pending request from them.
    static let readReceiptFacts = """
        SELECT u.username,
            EXISTS (SELECT 1 FROM message_requests WHERE recipient_id = $1 AND sender_id = u.id AND NOT accepted) AS pending_request
        FROM users u WHERE u.id = $2
        """

    /// The condition that message `m` (an alias) is in the direct conversation of `owner` and
    /// `peer` (SQL), through the pair index (`messages_by_pair`).
    static func pairOf(owner: String, peer: String, message m: String) -> String {
        """
        \(m).user_lo = CASE WHEN \(owner) < \(peer) THEN \(owner) ELSE \(peer) END
            AND \(m).user_hi = CASE WHEN \(owner) < \(peer) THEN \(peer) ELSE \(owner) END
        """
    }

    /// The unread count of direct conversation row `c` (an alias): the peer's messages after
    /// the owner's read mark, as a group's is the others' messages after the member's
    /// (`GroupSQL.conversations`). One unread model; tombstones count as the messages they were.
    static func directUnread(conversation c: String) -> String {
        """
        (SELECT COUNT(*) FROM messages x WHERE \(pairOf(owner: "\(c).owner_id", peer: "\(c).peer_id", message: "x"))
            AND x.sender_id = \(c).peer_id AND x.id > \(c).read_up_to)
        """
    }

    /// Reader `$1`'s read mark in their conversation with `$2` moves up to message `$3` (never
    /// back): their unread count becomes the peer's messages after it (`directUnread`).
    static let moveReadMark = """
        UPDATE conversations SET read_up_to = $3 WHERE owner_id = $1 AND peer_id = $2 AND read_up_to < $3
        """

    /// Writes the request of recipient `$1` from sender `$2` as accepted (`$3`) or pending.
    static let writeRequest = """
        INSERT INTO message_requests (recipient_id, sender_id, accepted) VALUES ($1, $2, $3)
        ON CONFLICT (recipient_id, sender_id) DO UPDATE SET accepted = excluded.accepted
        """

    /// The statements of a mark change on the conversation of owner `$1` with peer `$2`
    /// (numbered parameters, which SQLite reads as well), by change; `cleanUp` removes a row
    /// that holds neither mark. A pin takes the owner's next `pin_order` (groups' included).
    static let markStatements: [ConversationMarkChange: String] = [
        .pin: """
        INSERT INTO conversation_marks (owner_id, peer_id, pin_order)
        VALUES ($1, $2, \(GroupSQL.nextPinOrder))
        ON CONFLICT (owner_id, peer_id) DO UPDATE SET pin_order = EXCLUDED.pin_order
        """,
        .unpin: "UPDATE conversation_marks SET pin_order = NULL WHERE owner_id = $1 AND peer_id = $2",
        .mute: """
        INSERT INTO conversation_marks (owner_id, peer_id, muted) VALUES ($1, $2, TRUE)
        ON CONFLICT (owner_id, peer_id) DO UPDATE SET muted = TRUE
        """,
        .unmute: "UPDATE conversation_marks SET muted = FALSE WHERE owner_id = $1 AND peer_id = $2",
    ]

    /// Removes the mark row of owner `$1` with peer `$2` when it holds neither mark.
    static let cleanUpMarks =
        "DELETE FROM conversation_marks WHERE owner_id = $1 AND peer_id = $2 AND pin_order IS NULL AND NOT muted"

    /// The owner `$1`'s marks on the conversation with peer `$2`: whether pinned, whether muted,
    /// and how many conversations (groups included) the owner has pinned in all; no row when there is no such
    /// conversation.
    static let currentMarks = """
        SELECT k.pin_order IS NOT NULL AS pinned, COALESCE(k.muted, FALSE) AS muted,
            (SELECT COUNT(*) FROM conversation_marks WHERE owner_id = $1 AND pin_order IS NOT NULL) + \(GroupSQL.pinnedGroups) AS pins
        FROM conversations c
        LEFT JOIN conversation_marks k ON k.owner_id = c.owner_id AND k.peer_id = c.peer_id
        WHERE c.owner_id = $1 AND c.peer_id = $2
        """

    /// A report as operators see it, ending in `FROM reports rp …`: id, created-at
    /// milliseconds, reporter and reported usernames, whether the reported account is suspended
    /// now, reason, note, the reported message's id, sender, text and media ids as kept, then
    /// the resolution, its operator and its time (null while open), and the reported user's id.
    static let moderationReportColumns = """
        rp.id, rp.created_at, rp.reporter_username, rp.reported_username,
        EXISTS (SELECT 1 FROM users ru WHERE ru.id = rp.reported_id AND ru.suspended_at IS NOT NULL) AS reported_suspended,
        rp.reason, rp.note, rp.message_id, rp.message_sender, rp.message_text, rp.message_media_ids,
        rp.resolution, rp.resolved_by, rp.resolved_at, rp.reported_id
        FROM reports rp
        """

    /// One row of `ServerFigures` counts: users (deleted ones left out), suspended users,
    /// messages, open reports, and the bytes of distinct media.
    static let serverFigures = """
        SELECT (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL) AS users,
            (SELECT COUNT(*) FROM users WHERE suspended_at IS NOT NULL AND deleted_at IS NULL) AS suspended,
            (SELECT COUNT(*) FROM messages) AS messages,
            (SELECT COUNT(*) FROM reports WHERE resolved_at IS NULL) AS open_reports,
            (SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM (SELECT MAX(size) AS size FROM media GROUP BY sha256) AS blobs)
                AS media_bytes
        """
}
