/// Search over group messages (`GET /v1/search/messages?group=`): a group message is found
/// through the same index as a direct one, by its group — SQLite's FTS5 `message_search` under
/// `g<group>x<word>` terms (`SQLiteMessageSearch`), PostgreSQL's `search_words` under its GIN
/// index — and the viewer's membership window decides, in this query, which come back.
enum GroupSearch {
    /// The messages of group `$1` (0: every group of the viewer, now or once) that the viewer
    /// `$2` sees, not unsent, ids below `$3`, matching `condition` (the index's part), newest
    /// first, at most `$4` (SQLite: -1 for all).
    static func query(where condition: String) -> String {
        """
        SELECT \(GroupSQL.messageColumns) JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
        WHERE ($1 = 0 OR m.group_id = $1) AND \(GroupSQL.window(member: "gm", message: "m.id")) AND NOT m.deleted AND m.id < $3
            AND \(condition)
        ORDER BY m.id DESC LIMIT $4
        """
    }

    /// PostgreSQL's condition: the message's search words hold every word of `$5` (a text array).
    static let postgresCondition = "m.search_words @> $5::text[]"

    /// SQLite's condition for the messages up to the index's mark: the index's answer to the
    /// FTS5 query `$5` (`SQLiteMessageSearch.groupMatch`) below id `$3`.
    static let indexedCondition =
        "m.id IN (SELECT rowid FROM message_search WHERE message_search MATCH $5 AND rowid < $3)"

    /// SQLite's condition for the few messages above the index's mark `$5`, whose words are
    /// then matched in Swift.
    static let aboveMarkCondition = "m.id > $5"

    /// The groups of viewer `$1`, now or once (they keep seeing their window).
    static let viewerGroups = "SELECT group_id FROM group_members WHERE user_id = $1 ORDER BY group_id"
}
