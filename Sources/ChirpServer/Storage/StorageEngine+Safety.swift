import ChirpModels

/// `SafetyStore`, written once for both engines.
extension StorageEngine {
    func block(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await writing { scope in
            guard let (blocked, username) = try await scope.userIdAndName(key: blockedKey) else { return nil }
            // Both users locked in id order, as sends and follows between them lock them: a send
            // or a follow on any instance sees the block or comes before it.
            try await scope.lockUsers([blockerId, blocked])
            let inserted = try await scope.run(
                "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (blocker_id, blocked_id) DO NOTHING",
                blockerId, blocked, at)
            guard inserted > 0 else { return WriteOutcome(value: (), created: false) }
            // Any follow between the two, both ways, goes with its counts.
            for (follower, followee) in [(blockerId, blocked), (blocked, blockerId)]
            where try await scope.run(
                "DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2", follower, followee) > 0
            {
                try await scope.run(each: FollowSQL.count, follower, followee, -1)
            }
            let appended = try await scope.appendEvent(
                userId: blockerId, type: EventType.blockCreated, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func unblock(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>? {
        try await writing { scope in
            guard let (blocked, username) = try await scope.userIdAndName(key: blockedKey) else { return nil }
            try await scope.lockUsers([blockerId, blocked])
            guard
                try await scope.run("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2", blockerId, blocked)
                    > 0
            else {
                return WriteOutcome(value: (), created: false)
            }
            let appended = try await scope.appendEvent(
                userId: blockerId, type: EventType.blockDeleted, json: notice(username), at: at)
            return WriteOutcome(value: (), created: true, appended: [appended])
        }
    }

    func blocks(blockerId: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT b.id AS block_id, \(UserColumns.select("u", viewer: "$1")) FROM blocks b
                JOIN users u ON u.id = b.blocked_id
                WHERE b.blocker_id = $1 AND b.id < $2
                ORDER BY b.id DESC LIMIT $3
                """,
                blockerId, cursor, limit
            ).map { Listed(cursor: try $0("block_id"), item: try UserColumns.user(from: $0, "u")) }
        }
    }

    func reportedEnvelope(messageId: Int64, reporter: Int64, reportedKey: String) async throws -> ReportedEnvelope? {
        try await reading { scope in
            guard let (reported, _) = try await scope.userIdAndName(key: reportedKey),
                let message = try await scope.reportableMessage(messageId, reporter: reporter, reported: reported),
                let envelope = message.envelope
            else { return nil }
            let identityKey = try await scope.queryValue(
                """
                SELECT d.identity_key FROM devices d JOIN messages m ON m.sender_id = d.user_id
                WHERE m.id = $1 AND d.id = $2
                """, messageId, envelope.senderDevice, as: String.self)
            return ReportedEnvelope(
                message: message, envelope: envelope, reporterId: reporter, reportedId: reported,
                senderIdentityKey: identityKey)
        }
    }

    func fileReport(_ new: NewReport) async throws -> ReportOutcome {
        try await writing { scope in
            guard let (reported, reportedName) = try await scope.userIdAndName(key: new.reportedKey) else {
                return .noSuchUser
            }
            var message: Message?
            if let messageId = new.messageId {
                message = try await scope.reportableMessage(messageId, reporter: new.reporter.id, reported: reported)
                if message == nil { return .noSuchMessage }
            }
            guard
                let id = try await scope.queryValue(
                    """
                    INSERT INTO reports (
                        reporter_id, reporter_username, reported_id, reported_username, reason, note,
                        message_id, message_sender, message_text, message_media_ids, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    RETURNING id
                    """,
                    new.reporter.id, new.reporter.username, reported, reportedName, new.reason.rawValue, new.note,
                    new.messageId, message?.sender, new.messageText ?? message?.text,
                    ReportRecord.encodeMediaIds(message?.media.map(\.id) ?? []),
                    new.createdAt, as: Int64.self)
            else { throw StorageError.inconsistent("the report insert returned no id") }
            return .filed(id: id)
        }
    }

    func deleteReports(filedBefore cutoff: Timestamp, limit: Int) async throws -> Int {
        try await writing { scope in
            try await scope.run(
                "DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE created_at < $1 ORDER BY created_at, id LIMIT $2)",
                cutoff, limit)
        }
    }

    func reports(since: Timestamp, limit: Int) async throws -> [ReportRecord] {
        try await reading { scope in
            try await scope.query(
                """
                SELECT id, created_at, reporter_username, reported_username, reason, note,
                    message_id, message_sender, message_text, message_media_ids
                FROM reports WHERE created_at >= $1 ORDER BY created_at, id LIMIT $2
                """,
                since, limit
            ).map { row in
                ReportRecord(
                    id: try row("id"), createdAt: try row("created_at"), reporter: try row("reporter_username"),
                    reported: try row("reported_username"), reason: try row("reason"), note: try row("note"),
                    messageId: try row("message_id"), messageSender: try row("message_sender"),
                    messageText: try row("message_text"),
                    messageMediaIds: ReportRecord.decodeMediaIds(try row("message_media_ids")))
            }
        }
    }
}

extension StorageScope {
    /// The id and username of the user with that username key, if any.
    /// Message `id` if a report by `reporter` about user `reported` may name it: a message of
    /// their direct conversation, or the reported user's in a group the reporter reads.
    func reportableMessage(_ id: Int64, reporter: Int64, reported: Int64) async throws -> Message? {
        if let direct = try await directMessages(
            where: "m.id = $1 AND m.user_lo = $2 AND m.user_hi = $3 LIMIT 1", id, min(reporter, reported),
            max(reporter, reported)
        ).first {
            return direct
        }
        return try await queryRow(GroupSQL.reportableMessage, id, reporter, reported).map(MessageColumns.message(from:))
    }

    func userIdAndName(key: String) async throws -> (Int64, String)? {
        try await queryRow("SELECT id, username FROM users WHERE username_key = $1", key).map {
            (try $0("id"), try $0("username"))
        }
    }
}
