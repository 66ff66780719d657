import ChirpModels
import Foundation
import GRDB

/// Account deletion on SQLite (its search index's part is the engine's own).
extension SQLiteStorage {
    func deleteAccount(userId: Int64, at: Timestamp, notice: String, groups: some GroupDecisions) async throws
        -> WriteOutcome<Void>?
    {
        let writer = self.writer
        return try await write { db in
            guard
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL"),
                    arguments: [userId]) == true
            else { return nil }
            let audience = try Int64.fetchAll(
                db.cachedStatement(
                    sql: Self.sharedSQL(AccountDeletionSQL.directAudience + " UNION " + GroupSQL.groupPeers)),
                arguments: [userId]
            ).filter { $0 != userId }.sorted()
            // Out of the index at the end of the batch, after the entries of sends before it.
            let indexed = try SQLiteMessageSearch.entries(db, sentBy: userId)
            let mark = try SQLiteMessageSearch.indexedThrough(db)
            writer.atBatchEnd { db in try SQLiteMessageSearch.remove(db, indexed, indexedThrough: mark) }
            try Self.run(db, FollowSQL.deleteAccount, [userId])
            try db.cachedStatement(
                sql:
                    "UPDATE messages SET text = '', envelope = NULL, deleted = 1, reactions = NULL WHERE sender_id = ? AND group_id IS NULL"
            )
            .execute(arguments: [userId])
            try Self.run(db, AccountDeletionSQL.ownRows, [userId])
            try Self.run(db, [AccountDeletionSQL.anonymize], [userId, at.millisecondsSince1970])
            try Self.run(db, StorageSQL.deleteAccountRequests, [userId])
            var appended = try Self.deleteGroupPart(db, userId: userId, at: at, decisions: groups)
            appended += try Self.appendEvents(db, userIds: audience, type: EventType.userDeleted, json: notice, at: at)
            return WriteOutcome(value: (), created: true, appended: appended)
        }
    }
}
