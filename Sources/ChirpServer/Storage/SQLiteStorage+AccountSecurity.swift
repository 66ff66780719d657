import ChirpModels
import Foundation
import GRDB

/// Sessions list, ending one, password change and account deletion on SQLite.
extension SQLiteStorage {
    func sessions(userId: Int64, now: Timestamp) async throws -> [StoredSession] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT public_id, created_at, last_used_at, user_agent FROM sessions
                    WHERE user_id = ? AND expires_at > ? ORDER BY created_at DESC, public_id
                    """),
                arguments: [userId, now.millisecondsSince1970]
            ).map {
                StoredSession(
                    publicId: $0[0], createdAt: Timestamp(millisecondsSince1970: $0[1]),
                    lastUsedAt: Timestamp(millisecondsSince1970: $0[2]), userAgent: $0[3])
            }
        }
    }

    func deleteSession(userId: Int64, publicId: String) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE user_id = ? AND public_id = ?")
                .execute(arguments: [userId, publicId])
            return db.changesCount > 0
        }
    }

    func touchSession(publicId: String, at: Timestamp) async throws {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE sessions SET last_used_at = MAX(last_used_at, ?) WHERE public_id = ?")
                .execute(arguments: [at.millisecondsSince1970, publicId])
        }
    }

    func changePassword(userId: Int64, passwordHash: String, keeping publicId: String) async throws {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE users SET password_hash = ? WHERE id = ?").execute(arguments: [passwordHash, userId])
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE user_id = ? AND public_id <> ?").execute(arguments: [userId, publicId])
        }
    }

    func deleteAccount(userId: Int64, at: Timestamp, notice: String, groups: some GroupDecisions) async throws -> WriteOutcome<Void>? {
        let writer = self.writer
        return try await write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL"), arguments: [userId]) == true
            else { return nil }
            let audience = try Int64.fetchAll(
                db.cachedStatement(sql: Self.sharedSQL(AccountDeletionSQL.directAudience + " UNION " + GroupSQL.groupPeers)),
                arguments: [userId]).filter { $0 != userId }.sorted()
            // Out of the index at the end of the batch, after the entries of sends before it.
            let indexed = try SQLiteMessageSearch.entries(db, sentBy: userId)
            let mark = try SQLiteMessageSearch.indexedThrough(db)
            writer.atBatchEnd { db in try SQLiteMessageSearch.remove(db, indexed, indexedThrough: mark) }
            // The recipients' stored edits of those messages hold their text: tombstones too.
            try Self.tombstoneStoredEdits(
                db, streams: Array(Set(indexed.compactMap(\.recipient))), messageIds: indexed.map(\.messageId))
            try Self.run(db, FollowSQL.deleteAccount, [userId])
            try db.cachedStatement(sql: "UPDATE messages SET text = '', deleted = 1, reactions = NULL WHERE sender_id = ? AND group_id IS NULL")
                .execute(arguments: [userId])
            try Self.run(db, AccountDeletionSQL.ownRows, [userId])
            try Self.run(db, [AccountDeletionSQL.anonymize], [userId, at.millisecondsSince1970])
            try Self.run(db, StorageSQL.deleteAccountRequests, [userId])
            var appended = try Self.deleteGroupPart(
                db, userId: userId, placeholder: Validation.deletedAccountPrefix + String(userId), at: at, decisions: groups)
            appended += try Self.appendEvents(db, userIds: audience, type: EventType.userDeleted, json: notice, at: at)
            return WriteOutcome(value: (), created: true, appended: appended)
        }
    }
}
