import ChirpModels

/// Builds API pages from rows read with `PageRequest.fetch` (one more than the page holds).
enum PageBuilder {
    /// A newest-first page: the cursor is that of the last row kept, present only when there
    /// was one more row.
    static func newestFirst<Item>(_ rows: [Listed<Item>], limit: Int) -> Page<Item> {
        let kept = rows.prefix(limit)
        let next = rows.count > limit ? kept.last.map { String($0.cursor) } : nil
        return Page(items: kept.map(\.item), nextCursor: next)
    }
}
