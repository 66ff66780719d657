import ChirpModels

/// `PushStore`, written once for both engines.
extension StorageEngine {
    func pushKey(named name: String, created: String, at: Timestamp) async throws -> String {
        try await writing { scope in
            try await scope.run(
                "INSERT INTO push_keys (name, private_key, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                name, created, at)
            guard
                let key = try await scope.queryValue(
                    "SELECT private_key FROM push_keys WHERE name = $1", name, as: String.self)
            else { throw StorageError.inconsistent("push key \(name) is missing") }
            return key
        }
    }

    func putPushSubscription(_ new: NewPushSubscription, limit: Int) async throws -> PushSubscriptionPut {
        try await writing { scope in
            // The account's row first: two puts of one account count one after the other.
            try await scope.lockUsers([new.userId])
            let existing = try await scope.queryValue(
                "SELECT id FROM push_subscriptions WHERE user_id = $1 AND client_id = $2", new.userId, new.clientId,
                as: Int64.self)
            if let existing {
                try await scope.run(
                    """
                    UPDATE push_subscriptions SET session_hash = $2, endpoint = $3, p256dh = $4, auth = $5, preview = $6
                    WHERE id = $1
                    """, existing, SQLBlob(new.sessionHash), new.target.endpoint, new.target.p256dh, new.target.auth,
                    new.target.preview)
            } else {
                let count =
                    try await scope.queryValue(
                        "SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1", new.userId, as: Int.self) ?? 0
                guard count < limit else { return .tooMany }
                try await scope.run(
                    """
                    INSERT INTO push_subscriptions (user_id, client_id, session_hash, endpoint, p256dh, auth, preview, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    """, new.userId, new.clientId, SQLBlob(new.sessionHash), new.target.endpoint, new.target.p256dh,
                    new.target.auth, new.target.preview, new.at)
            }
            guard
                let stored = try await scope.queryRow(
                    "SELECT \(PushSQL.subscriptionColumns) FROM push_subscriptions s WHERE s.user_id = $1 AND s.client_id = $2",
                    new.userId, new.clientId
                ).map(Self.subscription(from:))
            else { throw StorageError.inconsistent("push subscription \(new.clientId) is missing") }
            return existing == nil ? .created(stored) : .replaced(stored)
        }
    }

    func pushSubscriptions(userId: Int64) async throws -> [StoredPushSubscription] {
        try await reading { scope in
            try await scope.query(
                "SELECT \(PushSQL.subscriptionColumns) FROM push_subscriptions s WHERE s.user_id = $1 ORDER BY s.id",
                userId
            ).map(Self.subscription(from:))
        }
    }

    @discardableResult
    func deletePushSubscription(userId: Int64, clientId: String) async throws -> Bool {
        try await writing { scope in
            // Its queue first: SQLite enforces the cascade only where foreign keys are on.
            try await scope.run(
                """
                DELETE FROM push_deliveries WHERE subscription_id IN (
                    SELECT id FROM push_subscriptions WHERE user_id = $1 AND client_id = $2)
                """, userId, clientId)
            return try await scope.run(
                "DELETE FROM push_subscriptions WHERE user_id = $1 AND client_id = $2", userId, clientId) > 0
        }
    }

    func hasPushSubscriptions() async throws -> Bool {
        try await reading { scope in
            try await scope.queryRow("SELECT 1 FROM push_subscriptions LIMIT 1") != nil
        }
    }

    @discardableResult
    func queuePushes(messageIds: [Int64], at: Timestamp) async throws -> Int {
        guard !messageIds.isEmpty else { return 0 }
        return try await writing { scope in
            let ids = SQLIdList(messageIds)
            return try await scope.run(PushSQL.queueDirect(scope.dialect), ids, at)
                + scope.run(PushSQL.queueGroup(scope.dialect), ids, at)
        }
    }

    func nextPushDue() async throws -> Timestamp? {
        try await reading { scope in
            try await scope.queryValue("SELECT MIN(next_attempt_at) FROM push_deliveries", as: Timestamp?.self) ?? nil
        }
    }

    func claimPushes(now: Timestamp, leaseEnd: Timestamp, limit: Int) async throws -> [PushJob] {
        try await writing { scope in
            let due = try await scope.query(
                """
                SELECT id FROM push_deliveries WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2\(
                    scope.dialect.forUpdateSkipLocked)
                """, now, limit
            ).map { try $0("id", as: Int64.self) }
            guard !due.isEmpty else { return [] }
            let ids = SQLIdList(due)
            let jobs = try await scope.query(PushSQL.jobs(scope.dialect), ids).map { row in
                PushJob(
                    deliveryId: try row("d_id"), messageId: try row("m_id"),
                    attempts: try row("d_attempts", as: Int.self) + 1,
                    queuedAt: try row("d_created_at"), subscription: try Self.subscription(from: row),
                    sender: try row("m_sender"), text: try row("m_text"), encrypted: try row("m_encrypted"),
                    groupId: try row("m_group"),
                    deleted: try row("m_deleted"), seen: try row("m_seen"), muted: try row("m_muted"))
            }
            try await scope.run(
                """
                UPDATE push_deliveries SET next_attempt_at = $2, attempts = attempts + 1
                WHERE \(scope.dialect.isAny("id", of: "$1"))
                """, ids, leaseEnd)
            return jobs
        }
    }

    func endPush(_ job: PushJob, _ end: PushEnd) async throws {
        try await writing { scope in
            // `message_id`: a newer message that took this one's place since stays queued.
            switch end {
            case .done:
                try await scope.run(
                    "DELETE FROM push_deliveries WHERE id = $1 AND message_id = $2", job.deliveryId, job.messageId)
            case .retry(let at):
                try await scope.run(
                    "UPDATE push_deliveries SET next_attempt_at = $3 WHERE id = $1 AND message_id = $2",
                    job.deliveryId, job.messageId, at)
            case .subscriptionGone:
                try await scope.run("DELETE FROM push_deliveries WHERE subscription_id = $1", job.subscription.id)
                try await scope.run("DELETE FROM push_subscriptions WHERE id = $1", job.subscription.id)
            }
        }
    }

    /// A subscription by `PushSQL.subscriptionColumns`.
    static func subscription(from row: some StorageRow) throws -> StoredPushSubscription {
        StoredPushSubscription(
            id: try row("s_id"), clientId: try row("s_client_id"),
            target: PushTarget(
                endpoint: try row("s_endpoint"), p256dh: try row("s_p256dh"), auth: try row("s_auth"),
                preview: try row("s_preview")),
            createdAt: try row("s_created_at"))
    }
}
