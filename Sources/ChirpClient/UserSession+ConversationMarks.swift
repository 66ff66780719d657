import ChirpModels

/// Pinned and muted conversations (API.md part 3), offline first: each change shows in the
/// local list at once (pinned ones first, most recently pinned first), is kept across a
/// restart in the outbox behind what the conversation queued before it, and is sent when the
/// server can be reached. The server's `conversation.updated` brings it to the user's other
/// devices. Each throws `ConversationMarkError` when it cannot be queued.
extension UserSession {
    /// Pins the conversation with `peer` (at most `Validation.maxPinnedConversations`).
    public func pin(_ peer: String) async throws { try await mark(.pin, peer) }

    /// Unpins the conversation with `peer`: it goes back to its place by recency.
    public func unpin(_ peer: String) async throws { try await mark(.unpin, peer) }

    /// Mutes the conversation with `peer`: its unread messages still count, the apps do not
    /// alert for new ones.
    public func mute(_ peer: String) async throws { try await mark(.mute, peer) }

    /// Unmutes the conversation with `peer`.
    public func unmute(_ peer: String) async throws { try await mark(.unmute, peer) }

    private func mark(_ kind: PendingAction.Kind, _ peer: String) async throws {
        try await ledger.queueMark(kind, peer: peer)
        _ = await outbox.drain()
    }
}
