import ChirpModels

/// The event retention's sweep (`EventStore.pruneEvents`), written once for both engines.
extension StorageEngine {
    func pruneEvents(before cutoff: Timestamp, usersAfter: Int64, limit: Int) async throws -> EventPruning {
        try await writing { scope in
            let users = try await scope.query(EventPruningSQL.users, usersAfter, Int64(limit)).map {
                try $0("id", as: Int64.self)
            }
            var deleted = 0
            for user in users { deleted += try await scope.run(EventPruningSQL.pruneStream, user, cutoff) }
            try await scope.run(EventPruningSQL.orphanPayloads, Int64(limit * 10))
            return EventPruning(lastUserId: users.last, deleted: deleted)
        }
    }
}
