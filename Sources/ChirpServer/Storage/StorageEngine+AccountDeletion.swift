import ChirpModels

/// Account deletion, written once for both engines (`AccountStore.deleteAccount`).
extension StorageEngine {
    /// In one transaction: the user's messages become tombstones (their events are read from
    /// the rows, under the account's new name), its own rows go (`AccountDeletionSQL`), it
    /// leaves every group as a leave does, and everyone who shared a conversation, a group or a
    /// follow with it hears `user.deleted` (`notice`). Locks as every writer: the groups' rows
    /// first, then every user whose row this changes, in id order.
    func deleteAccount(userId: Int64, at: Timestamp, notice: String, groups: some GroupDecisions) async throws
        -> WriteOutcome<Void>?
    {
        try await writing { scope in
            guard try await scope.queryRow("SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL", userId) != nil
            else { return nil }
            let memberOf = try await scope.query(
                "SELECT id FROM chat_groups WHERE id IN (\(GroupSQL.groupsOfMember)) ORDER BY id\(scope.dialect.forUpdate)",
                userId
            ).map { try $0("id", as: Int64.self) }
            var audience = Set<Int64>()
            for statement in [AccountDeletionSQL.directAudience, GroupSQL.groupPeers] {
                for row in try await scope.query(statement, userId) { audience.insert(try row(0, as: Int64.self)) }
            }
            audience.remove(userId)
            let followees = try await scope.query("SELECT followee_id FROM follows WHERE follower_id = $1", userId)
                .map { try $0("followee_id", as: Int64.self) }
            try await scope.lockUsers(Array(audience) + followees + [userId])
            try await scope.run(each: FollowSQL.deleteAccount, userId)
            try await scope.tombstoneMessages(where: "sender_id = $1", userId)
            try await scope.run(each: AccountDeletionSQL.ownRows, userId)
            try await scope.run(AccountDeletionSQL.anonymize, userId, at)
            try await scope.run(each: StorageSQL.deleteAccountRequests, userId)
            try await scope.run(GroupSQL.forgetMarks, userId)
            var appended = try await scope.leaveGroups(memberOf, userId: userId, at: at, decisions: groups)
            appended += try await scope.appendEvents(
                userIds: audience.sorted(), type: EventType.userDeleted, json: notice, at: at, stored: .copy)
            return WriteOutcome(value: (), created: true, appended: appended)
        }
    }
}
