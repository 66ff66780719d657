import ChirpPersistence

extension LocalLedger {
    /// This user blocked `username` (a `block.created` event, from this device or another):
    /// their conversation leaves the list, their tweets the timeline, and they leave this
    /// user's follow lists (the server ended those follows). Their messages stay stored, and
    /// an unblock brings the list and the timeline back by refreshing them.
    func removeBlocked(_ username: String) async throws {
        try await write { [self] in
            let me = self.username.lowercased()
            let conversations = try await database.conversations.delete(ids: [username.lowercased()])
            let tweets = try await database.timeline.delete(
                matching: RecordQuery().filter("author", .equal, .text(username)))
            let follows = try await database.follows.delete(
                matching: RecordQuery().filter("owner", .equal, .text(me)).filter("username", .equal, .text(username)))
            var changed: [LocalChange] = []
            if conversations > 0 { changed.append(.conversations) }
            if tweets > 0 { changed.append(.timeline) }
            if follows > 0 {
                changed += [.follows(owner: me, relation: "followers"), .follows(owner: me, relation: "following")]
            }
            return ((), changed)
        }
    }
}
