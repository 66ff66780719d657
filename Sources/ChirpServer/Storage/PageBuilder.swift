import ChirpModels

/// Builds API pages from rows read with `limit + 1`, for every storage.
enum PageBuilder {
    /// A newest-first page: the cursor is that of the last row kept, present only when there
    /// was one more row.
    static func newestFirst<Row, Item>(
        _ rows: [Row], limit: Int, cursor: (Row) -> Int64, item: (Row) -> Item
    ) -> Page<Item> {
        let kept = rows.prefix(limit)
        let next = rows.count > limit ? kept.last.map { String(cursor($0)) } : nil
        return Page(items: kept.map(item), nextCursor: next)
    }
}
