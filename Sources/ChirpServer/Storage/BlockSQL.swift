/// How the SQL of both storages asks about blocks, written once; the arguments are SQL
/// expressions (a column, or a parameter such as `$1`, `?2` or `:viewer`).
enum BlockSQL {
    /// Two boolean columns: whether `a` has blocked `b`, and whether `b` has blocked `a`
    /// (`BlocksBetween`, `MessageFacts`).
    static func between(_ a: String, _ b: String) -> String {
        "\(blocked(b, by: a)), \(blocked(a, by: b))"
    }

    /// Whether `blocker` has blocked `blocked`.
    static func blocked(_ blocked: String, by blocker: String) -> String {
        "EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked))"
    }

    /// Leaves out what `author` wrote when `viewer` has blocked them (timelines, conversation lists).
    static func notBlocked(_ author: String, by viewer: String) -> String {
        "NOT \(blocked(author, by: viewer))"
    }
}
