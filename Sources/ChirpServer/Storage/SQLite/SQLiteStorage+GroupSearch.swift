import ChirpModels
import GRDB

/// Group message search on SQLite, over the FTS5 index (`SQLiteMessageSearch`).
extension SQLiteStorage {
    /// As direct search (`searchMessages`): the few messages above the index's mark read from
    /// `messages` and matched here, then the index's answer for the viewer's groups, in one read.
    func searchGroupMessages(viewer: Int64, group: Int64?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { db in
            if let group,
                try Row.fetchOne(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSQL.membership)), arguments: [group, viewer]) == nil
            {
                return nil
            }
            let groups =
                try group.map { [$0] }
                ?? Int64.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.viewerGroups)), arguments: [viewer])
            guard !words.isEmpty, !groups.isEmpty else { return [] }
            return try SQLiteMessageSearch.search(db, words: words, before: before, limit: limit) { mark in
                try Row.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.query(where: GroupSearch.aboveMarkCondition))),
                    arguments: [group ?? 0, viewer, before, -1, mark]
                ).map(MessageColumns.message(from:))
            } indexed: { below, remaining in
                try Row.fetchAll(
                    db.cachedStatement(sql: Self.sharedSQL(GroupSearch.query(where: GroupSearch.indexedCondition))),
                    arguments: [
                        group ?? 0, viewer, below, remaining,
                        SQLiteMessageSearch.groupMatch(words: words, groups: groups),
                    ]
                ).map(MessageColumns.message(from:))
            }
        }
    }
}
