import ChirpPersistence

/// The stored form of one conversation's `HistoryStretches`: one row per peer.
struct ConversationHistory: StoredRecord {
    static let tableName = "histories"
    /// The peer, lowercased.
    var id: String
    var history: HistoryStretches
}

extension ClientDatabase {
    /// The history stretches (issue 40). Messages stored before them are single stretches
    /// each: nothing is assumed to join, and the first reads fetch what lies between.
    static let historyMigrations: [SQLiteStore.Migration] = [
        .init(
            name: "v3-histories",
            sql: """
                CREATE TABLE histories (id TEXT PRIMARY KEY, history TEXT NOT NULL);
                INSERT INTO histories (id, history)
                    SELECT peer, json_object('stretches', json_group_array(json_object('low', sortKey, 'high', sortKey)))
                    FROM (SELECT peer, sortKey FROM messages WHERE serverId IS NOT NULL ORDER BY peer, sortKey) GROUP BY peer;
                """)
    ]

    /// The stretches of the conversation with `peer` (none when nothing was read).
    func history(with peer: String) async throws -> HistoryStretches {
        try await histories.fetch(id: peer.lowercased())?.history ?? HistoryStretches()
    }

    /// The newest `limit` messages with `peer` from server id `low` up (pending ones
    /// included), oldest first, and whether more are stored there.
    func messages(with peer: String, from low: Int64, limit: Int) async throws -> (items: [LocalMessage], more: Bool) {
        let rows = try await messages.fetch(
            RecordQuery().filter("peer", .equal, .text(peer.lowercased())).filter(
                "sortKey", .greaterOrEqual, .integer(low)
            )
            .order(by: "sortKey", ascending: false).limit(limit + 1))
        return (Array(rows.prefix(limit).reversed()), rows.count > limit)
    }
}
