import ChirpClient

extension LocalMessage {
    /// Whether `id` names this message (by its local or its server id, as a reply does).
    func isNamed(_ id: String) -> Bool { self.id == id || serverId == id }

    /// Whether `user` reacted with `emoji`.
    func hasReaction(_ emoji: String, by user: String) -> Bool {
        reactions.contains { $0.emoji == emoji && $0.users.contains { $0.lowercased() == user.lowercased() } }
    }
}
