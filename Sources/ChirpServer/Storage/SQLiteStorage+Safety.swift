import ChirpModels
import Foundation
import GRDB

extension SQLiteStorage {
    func block(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { db in
            guard let (blocked, username) = try Self.userIdAndName(db, key: blockedKey) else { return nil }
            try db.cachedStatement(sql: """
                INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT (blocker_id, blocked_id) DO NOTHING
                """).execute(arguments: [blockerId, blocked, at.millisecondsSince1970])
            guard db.changesCount > 0 else { return WriteOutcome(value: (), created: false) }
            // Any follow between the two, both ways, goes with its counts.
            for (follower, followee) in [(blockerId, blocked), (blocked, blockerId)] {
                try db.cachedStatement(sql: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?")
                    .execute(arguments: [follower, followee])
                guard db.changesCount > 0 else { continue }
                try Self.run(db, FollowSQL.count, [follower, followee, -1])
            }
            let appended = try Self.appendEvent(db, userId: blockerId, type: EventType.blockCreated, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func unblock(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { db in
            guard let (blocked, username) = try Self.userIdAndName(db, key: blockedKey) else { return nil }
            try db.cachedStatement(sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?")
                .execute(arguments: [blockerId, blocked])
            guard db.changesCount > 0 else { return WriteOutcome(value: (), created: false) }
            let appended = try Self.appendEvent(db, userId: blockerId, type: EventType.blockDeleted, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func blocks(blockerId: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT b.id, \(Self.userColumns("u")) FROM blocks b
                    JOIN users u ON u.id = b.blocked_id
                    WHERE b.blocker_id = :viewer AND b.id < :cursor
                    ORDER BY b.id DESC LIMIT :limit
                    """),
                arguments: ["viewer": blockerId, "cursor": cursor, "limit": limit]
            ).map { Listed(cursor: $0[0], item: Self.user(from: $0, at: 1)) }
        }
    }

    func fileReport(_ new: NewReport) async throws -> ReportOutcome {
        try await write { db in
            guard let (reported, reportedName) = try Self.userIdAndName(db, key: new.reportedKey) else { return .noSuchUser }
            var message: Message?
            if let messageId = new.messageId {
                // Only a message of the reporter's conversation with the reported user, or the
                // reported user's in a group the reporter reads.
                message = try Self.fetchMessage(
                    db, where: "m.id = ? AND m.user_lo = ? AND m.user_hi = ?",
                    [messageId, min(new.reporter.id, reported), max(new.reporter.id, reported)])
                    ?? Row.fetchOne(
                        db.cachedStatement(sql: Self.sharedSQL(GroupSQL.reportableMessage)), arguments: [messageId, new.reporter.id, reported]
                    ).map(Self.groupMessage(from:))
                if message == nil { return .noSuchMessage }
            }
            try db.cachedStatement(sql: """
                INSERT INTO reports (
                    reporter_id, reporter_username, reported_id, reported_username, reason, note,
                    message_id, message_sender, message_text, message_media_ids, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    new.reporter.id, new.reporter.username, reported, reportedName, new.reason.rawValue, new.note,
                    new.messageId, message?.sender, message?.text, ReportRecord.encodeMediaIds(message?.media.map(\.id) ?? []), new.createdAt.millisecondsSince1970,
                ])
            return .filed(id: db.lastInsertedRowID)
        }
    }

    func deleteReports(filedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE created_at < ? ORDER BY created_at, id LIMIT ?)",
                arguments: [cutoff.millisecondsSince1970, limit])
            return db.changesCount
        }
    }

    func reports(since: Timestamp, limit: Int) async throws -> [ReportRecord] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT id, created_at, reporter_username, reported_username, reason, note,
                        message_id, message_sender, message_text, message_media_ids
                    FROM reports WHERE created_at >= ? ORDER BY created_at, id LIMIT ?
                    """),
                arguments: [since.millisecondsSince1970, limit]
            ).map { row in
                ReportRecord(
                    id: row[0], createdAt: Timestamp(millisecondsSince1970: row[1]), reporter: row[2], reported: row[3],
                    reason: row[4], note: row[5], messageId: row[6], messageSender: row[7], messageText: row[8],
                    messageMediaIds: ReportRecord.decodeMediaIds(row[9]))
            }
        }
    }

    /// The id and username of the user with that username key, if any.
    static func userIdAndName(_ db: Database, key: String) throws -> (Int64, String)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, username FROM users WHERE username_key = ?"), arguments: [key])
            .map { ($0[0], $0[1]) }
    }
}
