import ChirpModels

/// SQL of group conversations that reads the same in SQLite and PostgreSQL (numbered
/// parameters, which SQLite reads as well).
enum GroupSQL {
    /// The group `$1`: title, created-at milliseconds, the creator's username, the creating
    /// call's key (`NewGroup.requestKey`) and whether it ended (its last member left).
    static let group = """
        SELECT g.title, g.created_at, c.username, g.request_key, g.ended, g.encrypted_at IS NOT NULL AS encrypted
        FROM chat_groups g JOIN users c ON c.id = g.creator_id WHERE g.id = $1
        """

    /// The creator `$1`'s group with client id `$2`.
    static let groupByClientId = "SELECT id FROM chat_groups WHERE creator_id = $1 AND client_group_id = $2"

    /// The current members of group `$1`, longest-standing first: the user's columns (no
    /// viewer fields), role, joined-at milliseconds.
    static let members = """
        SELECT u.id AS u_id, u.username AS u_username, u.display_name AS u_display_name, u.created_at AS u_created_at,
            u.followers_count AS u_followers, u.following_count AS u_following, gm.role, gm.joined_at
        FROM group_members gm JOIN users u ON u.id = gm.user_id
        WHERE gm.group_id = $1 AND gm.removed_at IS NULL ORDER BY gm.join_seq
        """

    /// The current members' ids and roles of group `$1`, longest-standing first.
    static let memberRoles =
        "SELECT user_id, role, request FROM group_members WHERE group_id = $1 AND removed_at IS NULL ORDER BY join_seq"

    /// The one membership window (API.md part 3): membership row `member` (an alias of
    /// `group_members`) shows message id `message` (SQL) when the message came after their join
    /// mark and, for a former member, no later than the last message before they left.
    /// History, media, search, reads, readers, conversations, exports and reports all ask it.
    static func window(member gm: String, message m: String) -> String {
        "\(m) > \(gm).first_message_id AND (\(gm).last_message_id IS NULL OR \(m) <= \(gm).last_message_id)"
    }

    /// User `$2`'s membership of group `$1`: whether current, the window of messages they may
    /// see (ids after the first, up to the last; no last while current), and whether they have
    /// a pending group request.
    static let membership = """
        SELECT removed_at IS NULL AS current, first_message_id, last_message_id, request,
            (SELECT encrypted_at IS NOT NULL FROM chat_groups WHERE id = $1) AS encrypted
        FROM group_members WHERE group_id = $1 AND user_id = $2
        """

    /// Adds user `$2` to group `$1` (or brings a former member back) as role `$3` at `$4`, with a
    /// pending request when `$6`. `$5` is their join mark, a value taken from the one message id
    /// sequence as they join (no message has it): they see the messages after it, and until
    /// they see one the group sits at it in their conversation list (`conversations`).
    static let addMember = """
        INSERT INTO group_members (group_id, user_id, role, joined_at, join_seq, first_message_id, request)
        VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(join_seq), 0) + 1 FROM group_members WHERE group_id = $1), $5, $6)
        ON CONFLICT (group_id, user_id) DO UPDATE SET
            role = excluded.role, joined_at = excluded.joined_at, join_seq = excluded.join_seq,
            first_message_id = excluded.first_message_id, request = excluded.request,
            removed_at = NULL, last_message_id = NULL, read_up_to = 0
        """

    /// Removes user `$2` from group `$1` at `$3`; they keep seeing the messages up to the newest,
    /// and the group as it was when they left (`$4`, as `GroupDecisions.encode` wrote it).
    static let removeMember = """
        UPDATE group_members SET removed_at = $3, role = 'member', final_group = $4,
            last_message_id = (SELECT COALESCE(MAX(id), 0) FROM messages WHERE group_id = $1)
        WHERE group_id = $1 AND user_id = $2
        """

    /// Sets user `$2`'s role in group `$1` to `$3`.
    static let setRole = "UPDATE group_members SET role = $3 WHERE group_id = $1 AND user_id = $2"

    /// Renames group `$1` to `$2`.
    static let rename = "UPDATE chat_groups SET title = $2 WHERE id = $1"

    /// Turns group `$1`'s encryption on at `$2` (API.md part 4); it stays on.
    static let encrypt = "UPDATE chat_groups SET encrypted_at = $2 WHERE id = $1 AND encrypted_at IS NULL"

    /// The usernames of group `$1`'s current members who have no device (an encrypted group
    /// needs one for each).
    static let membersWithoutDevices = """
        SELECT u.username FROM group_members gm JOIN users u ON u.id = gm.user_id
        WHERE gm.group_id = $1 AND gm.removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.user_id = gm.user_id)
        ORDER BY u.username_key
        """

    /// Marks group `$1` ended.
    static let end = "UPDATE chat_groups SET ended = TRUE WHERE id = $1"

    /// The members of group `$1` among `blocks`' blockers of user `$2` (they see `$2`'s
    /// messages as `fromBlocked`).
    static let blockersOfSender = """
        SELECT b.blocker_id FROM blocks b
        JOIN group_members gm ON gm.group_id = $1 AND gm.user_id = b.blocker_id AND gm.removed_at IS NULL
        WHERE b.blocked_id = $2
        """

    /// How many members other than its sender have read group message `m` (pending requests
    /// left out, as their reads are private until they accept).
    static let readCount = """
        (SELECT COUNT(*) FROM group_members r WHERE r.group_id = m.group_id AND r.user_id <> m.sender_id AND r.read_up_to >= m.id
            AND NOT r.request AND \(window(member: "r", message: "m.id")))
        """

    /// Group message columns, ending in `FROM messages m …`, for the viewer `$2`: id,
    /// client id, sender, text, created-at milliseconds, replied-to id, group id, read count,
    /// whether the viewer blocked the sender, then the edit time, the reactions
    /// (`ReactionsColumn`), the tombstone flag, the media (`MediaJSON`) and whether the
    /// operators took it down.
    static let messageColumns = """
        m.id AS m_id, m.client_message_id AS m_client_id, s.username AS m_sender, m.text AS m_text, m.created_at AS m_created_at,
            m.reply_to AS m_reply_to, m.group_id AS m_group,
            \(readCount) AS m_read_count,
            \(BlockSQL.blocked("m.sender_id", by: "$2")) AS m_from_blocked,
            m.edited_at AS m_edited_at, m.reactions AS m_reactions, m.deleted AS m_deleted, m.media_json AS m_media,
            m.removed_by_operators AS m_removed, m.envelope AS m_envelope
        FROM messages m JOIN users s ON s.id = m.sender_id
        """

    /// Group message `$1` as its sender `$2` sees it.
    static let messageById = "SELECT \(messageColumns) WHERE m.id = $1"

    /// Group message `$1` when reporter `$2` may read it (a member, now or once, whose window
    /// holds it) and user `$3` sent it: a report may name it.
    static let reportableMessage = """
        SELECT \(messageColumns) JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
        WHERE m.id = $1 AND m.sender_id = $3 AND \(window(member: "gm", message: "m.id"))
        """

    /// The group and the sender of group message `$1`.
    static let messageGroupAndSender = "SELECT group_id, sender_id FROM messages WHERE id = $1 AND group_id IS NOT NULL"

    /// How many groups user `$1` is a current member of (pending requests included).
    static let groupCount = "SELECT COUNT(*) FROM group_members WHERE user_id = $1 AND removed_at IS NULL"

    /// The groups user `$1` is a current member of, in id order.
    static let groupsOfMember =
        "SELECT group_id FROM group_members WHERE user_id = $1 AND removed_at IS NULL ORDER BY group_id"

    /// Account deletion's part in group members, for user `$1`: their pins and mutes of groups go.
    static let forgetMarks = "UPDATE group_members SET pin_order = NULL, muted = FALSE WHERE user_id = $1"

    /// Whoever shares (or shared) a group with user `$1`: they hear of the account's deletion.
    static let groupPeers = """
        SELECT DISTINCT o.user_id FROM group_members o JOIN group_members me ON me.group_id = o.group_id
        WHERE me.user_id = $1 AND o.user_id <> $1
        """

    /// Inserts a group message (group `$1`, sender `$2`, client id `$3`, text `$4`, time `$5`,
    /// reply `$6`, media JSON `$7`, envelope `$8`) with id `id` (SQL: a parameter, or the
    /// sequence's next value) and, when given, `searchWords` (SQL) in PostgreSQL's column;
    /// returns the id.
    static func insertMessage(id: String, searchWords: String? = nil) -> String {
        """
        INSERT INTO messages (id, group_id, sender_id, client_message_id, text, created_at, reply_to, media_json, envelope\(
            searchWords == nil ? "" : ", search_words")) VALUES (\(id), $1, $2, $3, $4, $5, $6, $7, $8\(
            searchWords.map { ", \($0)" } ?? "")) RETURNING id
        """
    }

    /// Attaches media `$3` at `$2` to group message `$1` (for access checks and the sweep).
    static let attachMedia = "INSERT INTO message_media (message_id, position, media_id) VALUES ($1, $2, $3)"

    /// Whether the media `media` is in a group message (not unsent) that user `viewer` (SQL)
    /// may read: a current member whose window holds the message (they joined before it).
    static func mediaInMembersGroup(viewer: String) -> String {
        """
        EXISTS (SELECT 1 FROM message_media gmm JOIN messages gx ON gx.id = gmm.message_id
            JOIN group_members mx ON mx.group_id = gx.group_id AND mx.user_id = \(viewer) AND mx.removed_at IS NULL
            WHERE gmm.media_id = media.id AND NOT gx.deleted AND \(window(member: "mx", message: "gx.id")))
        """
    }

    /// The condition that viewer `$2`'s membership `gm` of group `$1` shows message `m`.
    static let visible = """
        m.group_id = $1 AND gm.group_id = $1 AND gm.user_id = $2 AND \(window(member: "gm", message: "m.id"))
        """

    /// A page of group `$1` for viewer `$2`: ids between `$3` and `$4`, at most `$5`.
    static func page(ascending: Bool) -> String {
        """
        SELECT \(messageColumns) JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
        WHERE \(visible) AND m.id > $3 AND m.id < $4 ORDER BY m.id \(ascending ? "ASC" : "DESC") LIMIT $5
        """
    }

    /// Message `$3` of group `$1` when viewer `$2` may see it.
    static let visibleMessage = """
        SELECT \(messageColumns) JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
        WHERE \(visible) AND m.id = $3
        """

    /// One row when message `$3` of group `$1` is one viewer `$2` sees (a reply may name it).
    static let visibleMessageExists = """
        SELECT 1 FROM messages m JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
        WHERE \(visible) AND m.id = $3
        """

    /// Sender `$2`'s message of group `$1` under client id `$3` (viewer: the sender).
    static let messageByClientId = """
        SELECT \(messageColumns) WHERE m.group_id = $1 AND m.sender_id = $2 AND m.client_message_id = $3
        """

    /// Moves reader `$2`'s marker in group `$1` up to `$3`, if that is further.
    static let advanceRead = """
        UPDATE group_members SET read_up_to = $3 WHERE group_id = $1 AND user_id = $2 AND read_up_to < $3
        """

    /// Records that reader `$2`'s marker in group `$1` reached `$3` at `$4`.
    static let recordRead = "INSERT INTO group_reads (group_id, user_id, up_to, read_at) VALUES ($1, $2, $3, $4)"

    /// Who read message `$2` of group `$1` (sent by `$3`): the user's columns and the first
    /// time their marker covered it; members whose window does not hold the message (they
    /// joined after it) and those whose group request is pending are left out.
    static let readers = """
        SELECT u.id AS u_id, u.username AS u_username, u.display_name AS u_display_name, u.created_at AS u_created_at,
            u.followers_count AS u_followers, u.following_count AS u_following, MIN(r.read_at) AS read_at
        FROM group_reads r JOIN users u ON u.id = r.user_id
        JOIN group_members gm ON gm.group_id = r.group_id AND gm.user_id = r.user_id
        WHERE r.group_id = $1 AND r.up_to >= $2 AND r.user_id <> $3 AND NOT gm.request AND \(window(member: "gm", message: "$2"))
        GROUP BY u.id, u.username, u.display_name, u.created_at, u.followers_count, u.following_count
        ORDER BY MIN(r.read_at), u.id
        """

    /// The current members' ids of group `$1`.
    static let memberIds =
        "SELECT user_id FROM group_members WHERE group_id = $1 AND removed_at IS NULL ORDER BY user_id"

    /// The viewer `$1`'s group conversations placed before cursor `$2` (at most `$3`), matching
    /// `condition` (over `pin_order` and `request`), in `order`: the place (the cursor), the
    /// group's id, whether a pending request, whether pinned, whether muted, the unread count
    /// (the others' messages after the viewer's marker), the pin order, the last message's
    /// id (null: none yet), whether the viewer is a former member, and the group as they last
    /// saw it (`FormerGroupColumn`; former members only).
    ///
    /// A group's place is the id of the last message the viewer sees or, while there is none and
    /// they are a current member, their join mark (`addMember`). Direct conversations are placed
    /// by their last message's id; all of these come from one sequence, so no two of a viewer's
    /// conversations share a place, and a cursor over places skips and repeats nothing.
    static func conversations(where condition: String, orderBy order: String = "place DESC") -> String {
        """
        SELECT place, group_id, request, pin_order IS NOT NULL AS pinned, muted, unread, pin_order, last_id,
            removed_at IS NOT NULL AS former, final_group FROM (
            SELECT c.*, COALESCE(last_id, CASE WHEN removed_at IS NULL THEN first_message_id END) AS place FROM (
                SELECT gm.group_id, gm.request, gm.pin_order, gm.muted, gm.removed_at, gm.first_message_id, gm.final_group,
                    (SELECT MAX(m.id) FROM messages m WHERE m.group_id = gm.group_id
                        AND \(window(member: "gm", message: "m.id"))) AS last_id,
                    (SELECT COUNT(*) FROM messages m WHERE m.group_id = gm.group_id AND m.sender_id <> gm.user_id
                        AND m.id > gm.read_up_to AND \(window(member: "gm", message: "m.id"))) AS unread
                FROM group_members gm WHERE gm.user_id = $1
            ) c
        ) p WHERE place < $2 AND \(condition) ORDER BY \(order) LIMIT $3
        """
    }

    /// `conversations`' conditions: the list (neither pinned nor a pending request), requests,
    /// and the pinned ones (most recently pinned first).
    static let listedCondition = "pin_order IS NULL AND NOT request"
    static let requestCondition = "request"
    static let pinnedCondition = "pin_order IS NOT NULL AND NOT request"

    /// The viewer `$1`'s direct conversations' pin orders by peer id (merged with groups').
    static let directPinOrders =
        "SELECT peer_id, pin_order FROM conversation_marks WHERE owner_id = $1 AND pin_order IS NOT NULL"

    /// The next pin order of owner `$1`, over direct conversations and groups alike.
    static let nextPinOrder = """
        (SELECT COALESCE(MAX(p), 0) + 1 FROM (
            SELECT pin_order AS p FROM conversation_marks WHERE owner_id = $1
            UNION ALL SELECT pin_order FROM group_members WHERE user_id = $1) AS orders)
        """

    /// How many groups user `$1` pinned.
    static let pinnedGroups = "(SELECT COUNT(*) FROM group_members WHERE user_id = $1 AND pin_order IS NOT NULL)"

    /// Member `$1`'s marks on group `$2`: whether pinned, muted, a pending request, and how
    /// many conversations and groups they pinned in all.
    static let groupMarks = """
        SELECT pin_order IS NOT NULL AS pinned, muted, request,
            (SELECT COUNT(*) FROM conversation_marks WHERE owner_id = $1 AND pin_order IS NOT NULL) + \(pinnedGroups) AS pins
        FROM group_members WHERE user_id = $1 AND group_id = $2 AND removed_at IS NULL
        """

    /// The statements of a mark change by member `$1` on group `$2`.
    static let markStatements: [ConversationMarkChange: String] = [
        .pin: "UPDATE group_members SET pin_order = \(nextPinOrder) WHERE user_id = $1 AND group_id = $2",
        .unpin: "UPDATE group_members SET pin_order = NULL WHERE user_id = $1 AND group_id = $2",
        .mute: "UPDATE group_members SET muted = TRUE WHERE user_id = $1 AND group_id = $2",
        .unmute: "UPDATE group_members SET muted = FALSE WHERE user_id = $1 AND group_id = $2",
    ]

    /// Accepts member `$1`'s group request of group `$2`.
    static let acceptRequest = "UPDATE group_members SET request = FALSE WHERE user_id = $1 AND group_id = $2"

    /// Forgets member `$2` of group `$1` (a declined request: the group leaves their list).
    static let forgetMember = "DELETE FROM group_members WHERE group_id = $1 AND user_id = $2"
}
