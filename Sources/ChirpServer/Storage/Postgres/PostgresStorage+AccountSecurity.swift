import ChirpModels
import PostgresNIO

/// Account deletion on PostgreSQL.
extension PostgresStorage {
    func deleteAccount(userId: Int64, at: Timestamp, notice: String, groups: some GroupDecisions) async throws
        -> WriteOutcome<Void>?
    {
        try await write { scope in
            guard
                try await scope.value(
                    "SELECT username FROM users WHERE id = \(userId) AND deleted_at IS NULL", as: String.self) != nil
            else { return nil }
            // The groups' rows first, as every group write takes them before users'.
            let memberOf = try await Self.lockGroups(scope, ofMember: userId)
            let groupPeers = try await scope.rows(
                PostgresQuery(unsafeSQL: GroupSQL.groupPeers, binds: Self.binds(userId))
            )
            .map { try $0.value(0, as: Int64.self) }
            let audience = Array(
                Set(
                    try await scope.rows(
                        PostgresQuery(unsafeSQL: AccountDeletionSQL.directAudience, binds: Self.binds(userId))
                    )
                    .map { try $0.value(0, as: Int64.self) } + groupPeers)
            ).filter { $0 != userId }
            let followees = try await scope.rows("SELECT followee_id FROM follows WHERE follower_id = \(userId)")
                .map { try $0.value(0, as: Int64.self) }
            // Every user whose row this changes, in id order, like every other writer.
            try await scope.lockUsers(audience + followees + [userId])
            try await scope.execute(FollowSQL.deleteAccount, Self.binds(userId))
            try await scope.execute(
                "UPDATE messages SET text = '', envelope = NULL, deleted = TRUE, reactions = NULL, search_words = '{}' WHERE sender_id = \(userId) AND group_id IS NULL"
            )
            try await scope.execute(AccountDeletionSQL.ownRows, Self.binds(userId))
            try await scope.execute([AccountDeletionSQL.anonymize], Self.binds(userId, at.millisecondsSince1970))
            try await scope.execute(StorageSQL.deleteAccountRequests, Self.binds(userId))
            try await Self.deleteGroupPart(
                scope, userId: userId, groups: memberOf, at: at, decisions: groups)
            for peer in audience.sorted() {
                try await scope.appendEvent(userId: peer, type: EventType.userDeleted, json: notice, at: at)
            }
            return WriteOutcome(value: (), created: true, appended: scope.appended)
        }
    }
}
