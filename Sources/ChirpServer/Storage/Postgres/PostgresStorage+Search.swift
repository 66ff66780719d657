import ChirpModels
import PostgresNIO

/// Direct and group message search on PostgreSQL: the rows' `search_words` under their GIN index (SQLite's
/// FTS5 counterpart is `SQLiteMessageSearch`).
extension PostgresStorage {
    func searchMessages(viewer: Int64, peerKey: String?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { scope in
            var pair = ""
            if let peerKey {
                guard let peer = try await scope.userId(key: peerKey) else { return nil }
                pair = " AND m.user_lo = \(min(viewer, peer)) AND m.user_hi = \(max(viewer, peer))"
            }
            guard !words.isEmpty else { return [] }
            return try await Self.fetchMessages(
                scope,
                where: """
                    m.search_words @> $1::text[] AND (m.sender_id = $2 OR m.recipient_id = $2) AND NOT m.deleted
                        AND m.id < $3\(pair) ORDER BY m.id DESC LIMIT $4
                    """,
                Self.binds(words, viewer, before, limit))
        }
    }

    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { scope in
            if let group,
                try await scope.row(PostgresQuery(unsafeSQL: GroupSQL.membership, binds: Self.binds(group, viewer)))
                    == nil
            {
                return nil
            }
            guard !words.isEmpty else { return [] }
            return try await scope.rows(
                PostgresQuery(
                    unsafeSQL: GroupSearch.query(where: GroupSearch.postgresCondition),
                    binds: Self.binds(group ?? 0, viewer, before, Int64(limit), words))
            )
            .map(MessageColumns.message(from:))
        }
    }
}
