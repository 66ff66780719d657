/// Search over group messages (`GET /v1/search/messages?group=`), the same on both
/// databases: a group message keeps its `SearchTerms` words in a `words` column (` w1 w2 `),
/// and a query asks, among the messages the viewer sees in their groups, for those whose
/// column holds every word (one `LIKE` each, the word's `%`, `_` and `\` escaped). It reads
/// the viewer's groups' messages rather than an index: enough for groups of people talking,
/// and written once for both databases.
enum GroupSearch {
    /// The `words` column of a message with this text.
    static func column(_ text: String) -> String {
        let words = SearchTerms.words(text)
        return words.isEmpty ? "" : " " + words.joined(separator: " ") + " "
    }

    /// The `LIKE` pattern of one query word.
    static func pattern(_ word: String) -> String {
        var escaped = ""
        for character in word {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "% " + escaped + " %"
    }

    /// The messages of group `$1` (0: every group of the viewer) the viewer `$2` sees, not
    /// unsent, ids below `$3`, holding every one of `wordCount` words (`$5`, `$6`, …), newest
    /// first, at most `$4`.
    static func query(wordCount: Int) -> String {
        let matches = (0..<wordCount).map { " AND m.words LIKE $\($0 + 5) ESCAPE '\\'" }.joined()
        return """
            SELECT \(GroupSQL.messageColumns) JOIN group_members gm ON gm.group_id = m.group_id AND gm.user_id = $2
            WHERE ($1 = 0 OR m.group_id = $1) AND m.id > gm.first_message_id
                AND (gm.last_message_id IS NULL OR m.id <= gm.last_message_id) AND NOT m.deleted AND m.id < $3\(matches)
            ORDER BY m.id DESC LIMIT $4
            """
    }
}
