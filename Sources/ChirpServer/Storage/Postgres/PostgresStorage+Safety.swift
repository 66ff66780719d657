import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func block(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { scope in
            guard let (blocked, username) = try await Self.userIdAndName(scope, key: blockedKey) else { return nil }
            // Both users locked in id order, as sends and follows between them lock them: a send
            // or a follow on any instance sees the block or comes before it.
            try await scope.lockUsers([blockerId, blocked])
            let inserted = try await scope.execute("""
                INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(blockerId), \(blocked), \(at.millisecondsSince1970))
                ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING 1
                """)
            guard inserted > 0 else { return WriteOutcome(value: (), created: false) }
            let removed = try await scope.rows("""
                DELETE FROM follows
                WHERE (follower_id = \(blockerId) AND followee_id = \(blocked)) OR (follower_id = \(blocked) AND followee_id = \(blockerId))
                RETURNING follower_id, followee_id
                """)
            for row in removed {
                let follower: Int64 = try row.value(0)
                let followee: Int64 = try row.value(1)
                try await scope.execute(FollowSQL.count, Self.binds(follower, followee, -1))
            }
            try await scope.appendEvent(userId: blockerId, type: EventType.blockCreated, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }

    func unblock(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await write { scope in
            guard let (blocked, username) = try await Self.userIdAndName(scope, key: blockedKey) else { return nil }
            try await scope.lockUsers([blockerId, blocked])
            let deleted = try await scope.execute(
                "DELETE FROM blocks WHERE blocker_id = \(blockerId) AND blocked_id = \(blocked) RETURNING 1")
            guard deleted > 0 else { return WriteOutcome(value: (), created: false) }
            try await scope.appendEvent(userId: blockerId, type: EventType.blockDeleted, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }

    func blocks(blockerId: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>] {
        try await read { scope in
            try await scope.rows(PostgresQuery(
                unsafeSQL: """
                    SELECT b.id, \(Self.userColumns("u", viewer: blockerId)) FROM blocks b
                    JOIN users u ON u.id = b.blocked_id
                    WHERE b.blocker_id = $1 AND b.id < $2
                    ORDER BY b.id DESC LIMIT $3
                    """,
                binds: Self.binds(blockerId, cursor, limit))
            ).map { Listed(cursor: try $0.value(0, as: Int64.self), item: try Self.user(from: $0, at: 1)) }
        }
    }

    func fileReport(_ new: NewReport) async throws -> ReportOutcome {
        try await write { scope in
            guard let (reported, reportedName) = try await Self.userIdAndName(scope, key: new.reportedKey) else { return .noSuchUser }
            var message: Message?
            if let messageId = new.messageId {
                // Only a message of the reporter's conversation with the reported user, or the
                // reported user's in a group the reporter reads.
                message = try await Self.fetchMessages(
                    scope, where: "m.id = $1 AND m.user_lo = $2 AND m.user_hi = $3",
                    Self.binds(messageId, min(new.reporter.id, reported), max(new.reporter.id, reported))).first
                if message == nil {
                    message = try await scope.row(PostgresQuery(
                        unsafeSQL: GroupSQL.reportableMessage, binds: Self.binds(messageId, new.reporter.id, reported))
                    ).map(Self.groupMessage(from:))
                }
                if message == nil { return .noSuchMessage }
            }
            guard let id = try await scope.value("""
                INSERT INTO reports (
                    reporter_id, reporter_username, reported_id, reported_username, reason, note,
                    message_id, message_sender, message_text, message_media_ids, created_at)
                VALUES (\(new.reporter.id), \(new.reporter.username), \(reported), \(reportedName), \(new.reason.rawValue),
                        \(new.note), \(new.messageId), \(message?.sender), \(message?.text), \(ReportRecord.encodeMediaIds(message?.media.map(\.id) ?? [])),
                        \(new.createdAt.millisecondsSince1970))
                RETURNING id
                """, as: Int64.self)
            else { throw StorageError.inconsistent("the report insert returned no id") }
            return .filed(id: id)
        }
    }

    func deleteReports(filedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await write { scope in
            try await scope.execute("""
                DELETE FROM reports WHERE id IN (
                    SELECT id FROM reports WHERE created_at < \(cutoff.millisecondsSince1970) ORDER BY created_at, id LIMIT \(limit))
                RETURNING 1
                """)
        }
    }

    func reports(since: Timestamp, limit: Int) async throws -> [ReportRecord] {
        try await read { scope in
            try await scope.rows("""
                SELECT id, created_at, reporter_username, reported_username, reason, note,
                    message_id, message_sender, message_text, message_media_ids
                FROM reports WHERE created_at >= \(since.millisecondsSince1970) ORDER BY created_at, id LIMIT \(limit)
                """
            ).map { row in
                ReportRecord(
                    id: try row.value(0), createdAt: Timestamp(millisecondsSince1970: try row.value(1)),
                    reporter: try row.value(2), reported: try row.value(3), reason: try row.value(4), note: try row.value(5),
                    messageId: try row.value(6), messageSender: try row.value(7), messageText: try row.value(8),
                    messageMediaIds: ReportRecord.decodeMediaIds(try row.value(9)))
            }
        }
    }

    /// The id and username of the user with that username key, if any.
    static func userIdAndName(_ scope: PostgresScope, key: String) async throws -> (Int64, String)? {
        try await scope.row("SELECT id, username FROM users WHERE username_key = \(key)")
            .map { (try $0.value(0, as: Int64.self), try $0.value(1, as: String.self)) }
    }
}
