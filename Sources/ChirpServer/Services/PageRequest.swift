/// A position in a newest-first list: at most `limit` items strictly older than `cursor`.
struct PageRequest: Sendable {
    var limit: Int
    var cursor: Int64?

    /// The exclusive upper bound storage reads below.
    var before: Int64 { cursor ?? Int64.max }
    /// Rows to read: one more than the page holds, which says whether there is a next page.
    var fetch: Int { limit + 1 }
}
